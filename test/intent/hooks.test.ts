import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openApp } from '../../src/app/app.js';
import { runHook } from '../../src/app/intent-hooks.js';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { askWriter } from '../../src/cli/hook-writer.js';
import { writerSocketPath } from '../../src/events/open-log.js';
import { intentlogArgs, intentlogHookArgs } from '../support/intentlog-bin.js';
import { agentSource, intentClient, openAt, userSource, withDir } from './harness.js';

const EVENTS = ['session-start', 'user-prompt', 'post-compact', 'stop', 'session-end'];

/**
 * Runs `intentlog hook <event>` with `stdin`; resolves with its stdout and exit code. The
 * Hook's own deadline is raised far above its default: these tests check what it records, and
 * on a loaded machine a 2 s deadline would answer `continue` before the write.
 */
const hook = (event: string, dataDir: string, stdin: string) =>
  run(intentlogArgs(['hook', ...hookArgs(event, dataDir)]), stdin);

const hookArgs = (event: string, dataDir: string) => [
  event,
  '--data-dir',
  dataDir,
  '--timeout',
  '60000',
];

const run = (args: string[], stdin: string) =>
  new Promise<{ stdout: string; code: number | null }>((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, INTENTLOG_STORE: '' },
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ stdout, code }));
    child.stdin.end(stdin);
  });

describe('intent hooks CLI', () => {
  it('every hook continues on malformed input and never creates a missing data dir', () =>
    withDir(async (dir) => {
      const missing = join(dir, 'not-there');
      // one malformed shape per event (each a process start; the machine is shared)
      const malformed = ['', '{not json', '[1,2]', 'null', '{"cwd": 42}'];
      await Promise.all(
        EVENTS.map(async (event, i) => {
          const { stdout, code } = await hook(event, missing, malformed[i]!);
          assert.equal(code, 0);
          assert.deepEqual(JSON.parse(stdout), { continue: true }, `${event} ${malformed[i]}`);
        }),
      );
      assert.equal(existsSync(missing), false);
    }));

  it('a directory that is no data dir is left as it was', () =>
    withDir(async (dir) => {
      await writeFile(join(dir, 'notes.txt'), 'not intentlog', { mode: 0o644 });
      const { stdout } = await hook('stop', dir, JSON.stringify({ cwd: dir }));
      assert.deepEqual(JSON.parse(stdout), { continue: true });
      assert.deepEqual(readdirSync(dir), ['notes.txt']);
      assert.equal(statSync(join(dir, 'notes.txt')).mode & 0o777, 0o644);
    }));

  it('session-start injects only direct user statements; user-prompt records only a hash', () =>
    withDir((data) =>
      withDir(async (root) => {
        const said = 'Use British spelling in the docs';
        const guessed = 'The user probably wants emoji in commit messages';
        const prompt = 'PROMPT-please-refactor-module-quokka-8812';
        let task_id: string;
        {
          const app = await openAt(data);
          const c = await intentClient(app, [root]);
          task_id = String(
            (
              await c.ok('intent_start_task', {
                host_session_id: 'session-A',
                claims: [
                  {
                    epistemic_status: 'explicit',
                    basis: 'direct_statement',
                    statement: said,
                    source_ref: userSource,
                  },
                  {
                    epistemic_status: 'inferred',
                    confidence: 0.4,
                    statement: guessed,
                    source_ref: agentSource,
                  },
                ],
              })
            ).task_id,
          );
          await c.close();
          await app.close();
        }
        const start = await hook(
          'session-start',
          data,
          JSON.stringify({ cwd: root, session_id: 'x' }),
        );
        const context = JSON.parse(start.stdout) as {
          continue: boolean;
          hookSpecificOutput: { additionalContext: string };
        };
        assert.equal(context.continue, true);
        assert.ok(context.hookSpecificOutput.additionalContext.includes(said));
        assert.ok(!context.hookSpecificOutput.additionalContext.includes(guessed));
        assert.match(context.hookSpecificOutput.additionalContext, /1 further claims/);

        const other = await hook('session-start', data, JSON.stringify({ cwd: '/' }));
        assert.deepEqual(JSON.parse(other.stdout), { continue: true }, 'another project: nothing');

        const input = { cwd: root, session_id: 'session-A', prompt };
        assert.deepEqual(
          JSON.parse((await hook('user-prompt', data, JSON.stringify(input))).stdout),
          {
            continue: true,
          },
        );
        assert.deepEqual(await filesHolding(data, [prompt]), []);
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        try {
          const { candidates } = await c.ok('intent_list_candidates', { task_id });
          const list = candidates as unknown as {
            origin: string;
            hook_event: string;
            statement: null;
          }[];
          assert.deepEqual(
            list.map((x) => [x.origin, x.hook_event, x.statement]),
            [['hook', 'user-prompt', null]],
          );
        } finally {
          await c.close();
          await app.close();
        }
      }),
    ));

  it('session-start shows what is active after a replacement and an invalidation', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        const user = (statement: string) => ({
          epistemic_status: 'explicit',
          basis: 'direct_statement',
          statement,
          source_ref: userSource,
        });
        try {
          const started = await c.ok('intent_start_task', {
            claims: [user('Keep the CLI flags'), user('Write the docs in French')],
          });
          const task_id = String(started.task_id);
          const [flags, french] = started.claims as unknown as { claim_id: string }[];
          await c.ok('intent_replace_claim', {
            task_id,
            supersedes: [flags!.claim_id],
            claim: user('Keep the CLI flags and their short forms'),
          });
          await c.ok('intent_invalidate', {
            task_id,
            claim_id: french!.claim_id,
            reason: 'the user changed their mind',
            source_ref: userSource,
          });
          await c.ok('intent_add_inference', {
            task_id,
            statement: 'The user likes small commits',
            confidence: 0.5,
            source_ref: agentSource,
          });
          const { hookSpecificOutput } = await runHook(app, 'session-start', { cwd: root });
          const lines = hookSpecificOutput!.additionalContext.split('\n');
          assert.deepEqual(
            lines.filter((l) => l.startsWith('- ')),
            ['- "Keep the CLI flags and their short forms"'],
          );
          // the inference: active, not a direct statement; the replaced and the invalidated: gone
          assert.match(lines.at(-1)!, /^\(1 further claims/);
        } finally {
          await c.close();
          await app.close();
        }
      }),
    ));

  it('post-compact flags recovery; the next session-start names the task once', () =>
    withDir((data) =>
      withDir(async (root) => {
        let task_id: string;
        {
          const app = await openAt(data);
          const c = await intentClient(app, [root]);
          task_id = String(
            (await c.ok('intent_start_task', { host_session_id: 'session-B' })).task_id,
          );
          await c.close();
          await app.close();
        }
        const session = (id: string) => JSON.stringify({ cwd: root, session_id: id });
        const contextOf = (stdout: string) =>
          (
            JSON.parse(stdout) as {
              continue: true;
              hookSpecificOutput?: { additionalContext: string };
            }
          ).hookSpecificOutput?.additionalContext;
        // another session's compaction flags nothing
        await hook('post-compact', data, session('session-other'));
        assert.equal(
          contextOf((await hook('session-start', data, session('x'))).stdout),
          undefined,
        );

        const compacted = await hook('post-compact', data, session('session-B'));
        assert.deepEqual(JSON.parse(compacted.stdout), { continue: true });
        const next = contextOf((await hook('session-start', data, session('session-B'))).stdout);
        assert.match(next ?? '', /context was compacted/);
        assert.ok(next!.includes(`intent_get_snapshot {"task_id":"${task_id}"}`));
        assert.ok(!next!.includes('could not be verified'));
        // served once: the start after it says nothing more
        assert.equal(
          contextOf((await hook('session-start', data, session('session-B'))).stdout),
          undefined,
        );
      }),
    ));

  it('a running writer answers the Hook: same context, candidate recorded', () =>
    withDir((data) =>
      withDir(async (root) => {
        const said = 'Keep the public API unchanged';
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        try {
          const task_id = String(
            (
              await c.ok('intent_start_task', {
                host_session_id: 'session-W',
                claims: [
                  {
                    epistemic_status: 'explicit',
                    basis: 'direct_statement',
                    statement: said,
                    source_ref: userSource,
                  },
                ],
              })
            ).task_id,
          );
          // asked directly: the writer (this process) runs it; nothing else opens the store
          const asked = await askWriter(data, {
            event: 'session-start',
            input: { cwd: root, session_id: 'x' },
          });
          assert.equal(asked.kind, 'answered');
          assert.ok(
            asked.kind === 'answered' &&
              asked.output.hookSpecificOutput?.additionalContext.includes(said),
          );
          // the whole process, while this process holds the data dir's lock
          const start = await hook('session-start', data, JSON.stringify({ cwd: root }));
          assert.deepEqual(JSON.parse(start.stdout), asked.kind === 'answered' && asked.output);
          // the plugin's entry answers the same
          const entry = intentlogHookArgs(hookArgs('session-start', data));
          const fromEntry = await run(entry, JSON.stringify({ cwd: root }));
          assert.deepEqual(JSON.parse(fromEntry.stdout), JSON.parse(start.stdout));
          const prompt = JSON.stringify({ cwd: root, session_id: 'session-W', prompt: 'hi' });
          assert.deepEqual(JSON.parse((await hook('user-prompt', data, prompt)).stdout), {
            continue: true,
          });
          const { candidates } = await c.ok('intent_list_candidates', { task_id });
          assert.deepEqual(
            (candidates as unknown as { hook_event: string }[]).map((x) => x.hook_event),
            ['user-prompt'],
          );
        } finally {
          await c.close();
          await app.close();
        }
      }),
    ));

  it("the plugin's entry continues on malformed input and hands anything else to the CLI", () =>
    withDir(async (dir) => {
      const missing = join(dir, 'not-there');
      const [malformed, help] = await Promise.all([
        run(intentlogHookArgs(hookArgs('user-prompt', missing)), '{not json'),
        run(intentlogHookArgs(['--help']), ''),
      ]);
      assert.equal(malformed.code, 0);
      assert.deepEqual(JSON.parse(malformed.stdout), { continue: true });
      assert.equal(existsSync(missing), false);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /Usage: intentlog hook \[options\] <event>/);
    }));

  it('the plugin runs every Hook through the entry the package installs as intentlog-hook', () => {
    const read = (path: string) =>
      JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as unknown;
    const { bin } = read('package.json') as { bin: Record<string, string> };
    assert.equal(bin['intentlog-hook'], 'dist/cli/hook.cjs');
    const { hooks } = read('plugin/hooks/hooks.json') as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const commands = Object.values(hooks).flatMap((list) =>
      list.flatMap((entry) => entry.hooks.map((h) => h.command)),
    );
    assert.deepEqual(
      commands.map((c) => c.split(' ')[0]),
      EVENTS.map(() => 'intentlog-hook'),
    );
    assert.deepEqual(commands.map((c) => c.split(' ')[1]).sort(), [...EVENTS].sort());
  });

  it('no writer, or one that serves no Hooks: the Hook is told to open the app itself', () =>
    withDir(async (data) => {
      const call = { event: 'stop', input: {} } as const;
      assert.deepEqual(await askWriter(data, call), { kind: 'none' }, 'no socket');
      // a socket file a killed writer left behind: nobody listens
      await writeFile(writerSocketPath(data), '');
      assert.deepEqual(await askWriter(data, call), { kind: 'none' }, 'stale socket');
      // a writer whose app has no intent context (no `intent.hook` op)
      const app = await openApp({ dataDir: data, modules: [] });
      try {
        assert.deepEqual(await askWriter(data, call), { kind: 'none' }, 'no intent.hook');
      } finally {
        await app.close();
      }
      assert.deepEqual(
        JSON.parse((await hook('stop', data, JSON.stringify({ cwd: '/' }))).stdout),
        { continue: true },
        'and then it opens the app in process',
      );
    }));
});
