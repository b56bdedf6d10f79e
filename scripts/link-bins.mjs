#!/usr/bin/env node
// A build step (package.json `build`, last): links this package's own bins into
// node_modules/.bin, where npm finds a package's bins for its own scripts and `npx`. npm links
// the bins of the packages a project depends on, never the project's own, so without this
// `npx intentlog` in the checkout would install the checkout into npm's cache and build it
// again there. POSIX only: on Windows `npm link` puts the bins on PATH instead.
import { chmod, lstat, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const binDir = join(root, 'node_modules/.bin');

if (process.platform === 'win32') process.exit(0);

const { bin } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
await mkdir(binDir, { recursive: true });
for (const [name, file] of Object.entries(bin)) {
  const target = join(root, file);
  // tsc writes 0644; the link runs the file itself, through its `#!/usr/bin/env node`
  await chmod(target, 0o755);
  const link = join(binDir, name);
  const present = await lstat(link).catch(() => undefined);
  if (present) await rm(link, { force: true });
  await symlink(relative(dirname(link), target), link);
}
