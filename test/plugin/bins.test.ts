import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// the build (test/run.mjs runs it first; `npm ci` runs it through `prepare`) links the bins
const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

/**
 * `npx --no-install <args>` in the checkout, with an npm cache of its own. npm (9 to 11) runs a
 * bin of the project itself by linking the project into `<cache>/_npx/<hash>/node_modules` and
 * preparing it there, whatever node_modules/.bin holds and whatever `--no-install` says: what
 * it links and whether it built anything are what the answer holds.
 */
const npx = (args: string[], input = '') => {
  const cache = mkdtempSync(join(tmpdir(), 'npx-cache-'));
  const built = statSync(join(root, 'dist/cli/main.js')).mtimeMs;
  try {
    const run = spawnSync('npx', ['--no-install', ...args], {
      cwd: root,
      input,
      encoding: 'utf8',
      env: { ...process.env, npm_config_cache: cache, INTENTLOG_HOME: join(cache, 'data') },
      timeout: 60_000,
    });
    const installed = readdirSync(join(cache, '_npx')).map((hash) =>
      join(cache, '_npx', hash, 'node_modules/intentlog'),
    );
    return {
      ...run,
      linked: installed.map((path) => lstatSync(path).isSymbolicLink() && realpathSync(path)),
      rebuilt: statSync(join(root, 'dist/cli/main.js')).mtimeMs !== built,
    };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
};

describe('the bins in the checkout', () => {
  it('are linked in node_modules/.bin to the built, executable files', () => {
    for (const [name, file] of Object.entries(pkg.bin)) {
      const link = join(root, 'node_modules/.bin', name);
      assert.equal(realpathSync(link), join(root, file), name);
      accessSync(link, constants.X_OK);
      assert.match(readFileSync(link, 'utf8'), /^#!\/usr\/bin\/env node\n/, name);
    }
  });

  it('npx intentlog runs the checkout’s build as it is: linked, not copied or rebuilt', () => {
    const run = npx(['intentlog', '--version']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), pkg.version);
    assert.deepEqual(run.linked, [root], 'npx linked the checkout itself');
    assert.equal(run.rebuilt, false, 'prepare built nothing under npx');
  });

  it('npx intentlog-hook answers a Hook', () => {
    const run = npx(['intentlog-hook', 'session-start'], '{}');
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { continue: true, suppressOutput: true });
  });
});
