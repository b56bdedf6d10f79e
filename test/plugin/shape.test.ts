import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  Marketplace,
  McpConfig,
  PluginManifest,
  hookCommands,
  readJson,
  walk,
} from './plugin-files.js';

// the build (test/run.mjs runs it first) writes dist/claude-plugin/ from plugin/ and skills/
const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const marketplace = readJson(join(root, '.claude-plugin/marketplace.json'), Marketplace);
const entry = marketplace.plugins[0]!;
const built = resolve(root, entry.source);
const committed = join(root, 'plugin');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
};

describe('the repository as a Claude Code marketplace', () => {
  it('names a plugin inside the repository whose manifest carries the same name', () => {
    assert.equal(marketplace.name, 'intentlog');
    assert.equal(entry.name, 'intentlog-intent');
    assert.ok(built.startsWith(`${root}/`), `${entry.source} is inside the repository`);
    const manifest = readJson(join(built, '.claude-plugin/plugin.json'), PluginManifest);
    assert.equal(manifest.name, entry.name);
    assert.match(manifest.version, new RegExp(`^${version.replaceAll('.', '\\.')}-g[0-9a-f]{8}$`));
  });

  it('holds no symlink, committed or built, so the copy Claude Code makes holds every file', () => {
    for (const dir of [committed, built])
      assert.deepEqual(
        walk(dir).filter((e) => e.link),
        [],
        dir,
      );
    const modes = execFileSync('git', ['ls-files', '-s', 'plugin'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.doesNotMatch(modes, /^120000 /m, 'no link committed under plugin/');
  });

  it('builds every committed file, and the Skill the intent surface serves', () => {
    const files = (dir: string) =>
      walk(dir)
        .filter((e) => e.file)
        .map((e) => e.path)
        .sort();
    const builtFiles = files(built);
    for (const path of files(committed)) assert.ok(builtFiles.includes(path), path);
    assert.equal(
      readFileSync(join(built, 'skills/intent/SKILL.md'), 'utf8'),
      readFileSync(join(root, 'skills/intent/SKILL.md'), 'utf8'),
    );
  });

  it('runs the checkout’s own build by absolute path; the committed plugin runs the bins', () => {
    const mcp = readJson(join(built, '.mcp.json'), McpConfig).mcpServers['intentlog-intent']!;
    assert.equal(mcp.command, 'node');
    assert.deepEqual(mcp.args, [join(root, 'dist/cli/main.js'), 'mcp', '--surface', 'intent']);
    const source = readJson(join(committed, '.mcp.json'), McpConfig).mcpServers[
      'intentlog-intent'
    ]!;
    assert.deepEqual([source.command, ...source.args], ['intentlog', 'mcp', '--surface', 'intent']);

    const hooks = hookCommands(join(built, 'hooks/hooks.json'));
    const sources = hookCommands(join(committed, 'hooks/hooks.json'));
    assert.deepEqual(
      hooks.map((h) => h.event),
      sources.map((h) => h.event),
    );
    for (const [i, { command }] of hooks.entries()) {
      const [node, script, event, ...rest] = command.split(' ');
      assert.equal(node, 'node');
      assert.equal(script, join(root, 'dist/cli/hook.cjs'));
      accessSync(script, constants.R_OK);
      assert.deepEqual(rest, []);
      assert.equal(`intentlog-hook ${event}`, sources[i]!.command);
    }
  });

  it('each built Hook answers as Claude Code runs it (sh -c, hook input on stdin)', () => {
    const data = mkdtempSync(join(tmpdir(), 'plugin-hooks-'));
    try {
      for (const { event, command } of hookCommands(join(built, 'hooks/hooks.json'))) {
        const run = spawnSync('sh', ['-c', command], {
          input: JSON.stringify({ hook_event_name: event, session_id: 's1', cwd: data }),
          env: { ...process.env, INTENTLOG_HOME: data, INTENTLOG_STORE: '' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        assert.equal(run.status, 0, `${event}: ${run.stderr}`);
        const answer = JSON.parse(run.stdout) as {
          continue: boolean;
          suppressOutput: boolean;
          hookSpecificOutput?: { hookEventName: string; additionalContext: string };
        };
        // intent-loop's Hooks: nothing shown to the user; with no task linked to the session,
        // SessionStart and UserPromptSubmit hand the agent the token that links one; the
        // others say nothing
        assert.equal(answer.continue, true, event);
        assert.equal(answer.suppressOutput, true, event);
        if (event === 'SessionStart' || event === 'UserPromptSubmit') {
          assert.equal(answer.hookSpecificOutput?.hookEventName, event);
          assert.match(answer.hookSpecificOutput.additionalContext, /host_session_id="s1"/);
        } else assert.equal(answer.hookSpecificOutput, undefined, event);
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('stamps the version from what it builds: a changed Skill is a new version', () => {
    const copy = mkdtempSync(join(tmpdir(), 'plugin-build-'));
    try {
      for (const path of ['package.json', 'plugin', 'skills', 'scripts/claude-plugin.mjs'])
        cpSync(join(root, path), join(copy, path), { recursive: true });
      const stamp = () => {
        execFileSync(process.execPath, [join(copy, 'scripts/claude-plugin.mjs')]);
        const out = join(copy, 'dist/claude-plugin');
        return readJson(join(out, '.claude-plugin/plugin.json'), PluginManifest).version;
      };
      const first = stamp();
      assert.equal(stamp(), first, 'the same files, the same version');
      assert.notEqual(
        first,
        readJson(join(built, '.claude-plugin/plugin.json'), PluginManifest).version,
        'another checkout path',
      );
      writeFileSync(join(copy, 'skills/intent/SKILL.md'), 'changed\n');
      assert.notEqual(stamp(), first);
      const mcp = readJson(join(copy, 'dist/claude-plugin/.mcp.json'), McpConfig);
      assert.equal(mcp.mcpServers['intentlog-intent']!.args[0], join(copy, 'dist/cli/main.js'));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
