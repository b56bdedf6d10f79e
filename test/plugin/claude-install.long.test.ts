import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { installClient } from '../support/clients.js';
import { McpConfig, hookCommands, walk } from './plugin-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const SAID = 'Keep the public CLI flags backwards compatible';

type Run = { code: number | null; stdout: string; stderr: string };
const run = (
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeout?: number },
) =>
  new Promise<Run>((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeout ?? 120_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // a process that exits without reading its input must not fail the write
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
const ok = (r: Run, what: string) => assert.equal(r.code, 0, `${what}\n${r.stdout}\n${r.stderr}`);

/** A fresh clone of this commit, installed as a person would: `npm ci` (which builds). */
const cloneAndInstall = async (into: string) => {
  const head = (await run('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
  ok(await run('git', ['clone', '--quiet', '--no-checkout', root, into], { cwd: root }), 'clone');
  ok(await run('git', ['checkout', '--quiet', '--detach', head], { cwd: into }), 'checkout');
  const npm = ['ci', '--prefer-offline', '--no-audit', '--no-fund'];
  ok(await run('npm', npm, { cwd: into, timeout: 12 * 60_000 }), 'npm ci in the clone');
};

/** Starts the server the installed copy's .mcp.json names and records a task in `project`. */
const seedThroughCopy = async (copy: string, project: string, env: Record<string, string>) => {
  const server = McpConfig.parse(JSON.parse(readFileSync(join(copy, '.mcp.json'), 'utf8')))
    .mcpServers['intentlog-intent']!;
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    cwd: project,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'plugin-test', version: '1' }, { capabilities: { roots: {} } });
  client.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: pathToFileURL(project).href, name: 'project' }],
  }));
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('intent_start_task'), tools.join(' '));
    const skill = await client.readResource({ uri: 'intent-loop://skill/intent' });
    assert.match((skill.contents[0] as { text: string }).text, /^---\nname: intent\n/);
    const started = await client.callTool({
      name: 'intent_start_task',
      arguments: {
        host_session_id: 'plugin-session',
        claims: [
          {
            epistemic_status: 'explicit',
            basis: 'direct_statement',
            statement: SAID,
            source_ref: { kind: 'user_event', event_id: 'u-1' },
          },
        ],
      },
    });
    assert.equal((started.structuredContent as { ok: boolean }).ok, true);
  } finally {
    await client.close();
  }
};

describe('the plugin, installed by the real claude CLI from a fresh clone', () => {
  it(
    'installs every file, its server connects and its Hooks answer',
    { timeout: 20 * 60_000 },
    async (t) => {
      const work = realpathSync(mkdtempSync(join(tmpdir(), 'plugin-install-')));
      try {
        const clone = join(work, 'intentlog');
        const [claude] = await Promise.all([installClient('claude'), cloneAndInstall(clone)]);
        if ('skip' in claude) return t.skip(claude.skip);

        const home = join(work, 'home');
        const project = join(work, 'project');
        const data = join(work, 'data');
        mkdirSync(project, { recursive: true });
        const env = {
          ...process.env,
          HOME: home,
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          DISABLE_AUTOUPDATER: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          // a server's start-up and first lists on a loaded machine (Claude Code's default: 30 s)
          MCP_TIMEOUT: '120000',
          INTENTLOG_HOME: data,
          INTENTLOG_STORE: '',
        };
        const cli = (args: string[], cwd = project) => run(claude.bin, args, { cwd, env });

        ok(await cli(['plugin', 'validate', clone]), 'validate the marketplace');
        ok(
          await cli(['plugin', 'validate', join(clone, 'dist/claude-plugin')]),
          'validate the plugin',
        );
        ok(await cli(['plugin', 'marketplace', 'add', clone]), 'marketplace add');
        ok(await cli(['plugin', 'install', 'intentlog-intent@intentlog']), 'plugin install');

        // the copy Claude Code made: every file of the built plugin, none a link
        const installed = JSON.parse(
          readFileSync(join(home, '.claude/plugins/installed_plugins.json'), 'utf8'),
        ) as { plugins: Record<string, { installPath: string }[]> };
        const copy = installed.plugins['intentlog-intent@intentlog']![0]!.installPath;
        assert.ok(copy.startsWith(join(home, '.claude/plugins/cache/')), copy);
        assert.deepEqual(
          walk(copy).filter((e) => e.link),
          [],
        );
        const files = (dir: string) =>
          walk(dir)
            .filter((e) => e.file)
            .map((e) => e.path)
            .sort();
        assert.deepEqual(files(copy), files(join(clone, 'dist/claude-plugin')));

        await seedThroughCopy(copy, project, { INTENTLOG_HOME: data, INTENTLOG_STORE: '' });
        const listed = await cli(['mcp', 'list']);
        ok(listed, 'mcp list');
        assert.match(listed.stdout, /plugin:intentlog-intent:intentlog-intent: .* - ✔ Connected\n/);

        // each Hook as Claude Code runs it: sh -c, the hook input on stdin, in the project. On a
        // loaded machine the Hook's own 2 s deadline would answer `continue` alone (it fails
        // open): the test gives it a minute, as test/intent/hooks.test.ts does
        for (const { event, command } of hookCommands(join(copy, 'hooks/hooks.json'))) {
          const input = { hook_event_name: event, session_id: 'plugin-session', cwd: project };
          const hook = await run('sh', ['-c', `${command} --timeout 60000`], {
            cwd: project,
            env,
            input: JSON.stringify(input),
          });
          ok(hook, event);
          const answer = JSON.parse(hook.stdout) as {
            continue: boolean;
            hookSpecificOutput?: { additionalContext: string };
          };
          assert.equal(answer.continue, true, event);
          if (event === 'SessionStart')
            assert.ok(answer.hookSpecificOutput?.additionalContext.includes(SAID), hook.stdout);
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  );
});
