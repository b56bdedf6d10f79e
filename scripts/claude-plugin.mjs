#!/usr/bin/env node
// A build step (package.json `build`, after the bundle): writes the installable Claude Code
// plugin to dist/claude-plugin/, the folder the repository's marketplace
// (.claude-plugin/marketplace.json) names. Claude Code copies an installed plugin into its own
// cache, so the copy must hold every file it uses and reach nothing through a relative path.
// Here each command of the committed plugin/ (`intentlog …`, `intentlog-hook …`, for a global
// install) becomes this checkout's own build by absolute path, the Skill becomes a real file,
// and plugin.json's `version` gets a stamp of the generated files, so Claude Code copies the
// plugin again when it changes (its cache is keyed by that version). docs/decisions.md says why.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const source = join(root, 'plugin');
const out = join(root, 'dist/claude-plugin');

/** What each bin of package.json runs, by absolute path: `node <file>`. */
const bins = {
  intentlog: join(root, 'dist/cli/main.js'),
  'intentlog-hook': join(root, 'dist/cli/hook.cjs'),
};

/** POSIX shell quoting, only where needed (as the serve banner quotes). */
const sh = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

const readJson = async (path) => JSON.parse(await readFile(join(source, path), 'utf8'));
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** `intentlog-hook stop` → `node '/abs/dist/cli/hook.cjs' stop`; anything else is refused. */
const hookCommand = (command) => {
  const [bin, ...rest] = command.split(' ');
  const file = bins[bin];
  if (!file) throw new Error(`plugin/hooks/hooks.json: "${command}" runs no intentlog bin`);
  return ['node', sh(file), ...rest].join(' ');
};

const mcpServers = (config) =>
  Object.fromEntries(
    Object.entries(config.mcpServers).map(([name, server]) => {
      const file = bins[server.command];
      if (!file) throw new Error(`plugin/.mcp.json: ${name} runs no intentlog bin`);
      return [name, { ...server, command: 'node', args: [file, ...(server.args ?? [])] }];
    }),
  );

const hooksConfig = (config) => ({
  ...config,
  hooks: Object.fromEntries(
    Object.entries(config.hooks).map(([event, groups]) => [
      event,
      groups.map((group) => ({
        ...group,
        hooks: group.hooks.map((hook) =>
          hook.type === 'command' ? { ...hook, command: hookCommand(hook.command) } : hook,
        ),
      })),
    ]),
  ),
});

/** The Skills, from the repository's skills/ (the file the intent surface serves too). */
const skills = async () => {
  const files = {};
  for (const name of await readdir(join(root, 'skills'))) {
    const path = `skills/${name}/SKILL.md`;
    files[path] = await readFile(join(root, path), 'utf8');
  }
  return files;
};

const manifest = await readJson('.claude-plugin/plugin.json');
const files = {
  '.mcp.json': json({ mcpServers: mcpServers(await readJson('.mcp.json')) }),
  'hooks/hooks.json': json(hooksConfig(await readJson('hooks/hooks.json'))),
  ...(await skills()),
};

const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const digest = createHash('sha256');
digest.update(json({ ...manifest, version }));
for (const path of Object.keys(files).sort()) digest.update(`${path}\0${files[path]}\0`);
// `g` keeps the pre-release part a valid semver identifier whatever the hex starts with
files['.claude-plugin/plugin.json'] = json({
  ...manifest,
  version: `${version}-g${digest.digest('hex').slice(0, 8)}`,
});

await rm(out, { recursive: true, force: true });
for (const [path, text] of Object.entries(files)) {
  await mkdir(dirname(join(out, path)), { recursive: true });
  await writeFile(join(out, path), text);
}
