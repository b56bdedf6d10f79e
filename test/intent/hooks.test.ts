import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runLightHook, rootHashOf } from '../../src/app/intent/hook-light.js';
import { spoolDir, spooled } from '../../src/app/intent/hook-spool.js';
import { readView, viewsDir } from '../../src/app/intent/hook-view-file.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { intentlogArgs, intentlogHookArgs } from '../support/intentlog-bin.js';
import {
  agentSource,
  intentClient,
  openAt,
  startTaskAt,
  userSource,
  withDir,
  withIntentClient,
} from './harness.js';

const EVENTS = ['session-start', 'user-prompt', 'post-compact', 'stop', 'session-end'];
const QUIET = { continue: true, suppressOutput: true };

/**
 * Runs `intentlog hook <event>` with `stdin`; resolves with its stdout and exit code. The
 * Hook's own deadline is raised far above its default: these tests check what it does, and on a
 * loaded machine a 2 s deadline would answer `continue` first.
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

const user = (statement: string) => ({
  epistemic_status: 'explicit',
  basis: 'direct_statement',
  statement,
  source_ref: userSource,
});

/** The task's Hook candidates, as a writer folded them (opening the app folds the spool). */
const candidatesOf = async (data: string, root: string, task_id: string) => {
  return withIntentClient(data, [root], async (c) => {
    const { candidates } = await c.ok('intent_list_candidates', { task_id });
    return candidates as unknown as { candidate_id: string; origin: string; hook_event: string }[];
  });
};

const contextOf = (output: { hookSpecificOutput?: { additionalContext: string } }) =>
  output.hookSpecificOutput?.additionalContext ?? '';

describe('intent hooks CLI', () => {
  it('every hook continues on malformed input and never creates a missing data dir', () =>
    withDir(async (dir) => {
      const missing = join(dir, 'not-there');
      const malformed = ['', '{not json', '[1,2]', 'null', '{"cwd": 42}'];
      await Promise.all(
        EVENTS.map(async (event, i) => {
          const { stdout, code } = await hook(event, missing, malformed[i]!);
          assert.equal(code, 0);
          assert.deepEqual(JSON.parse(stdout), QUIET, `${event} ${malformed[i]}`);
        }),
      );
      assert.equal(existsSync(missing), false);
    }));

  it('a directory that is no data dir is left as it was', () =>
    withDir(async (dir) => {
      await writeFile(join(dir, 'notes.txt'), 'not intentlog', { mode: 0o644 });
      const { stdout } = await hook('stop', dir, JSON.stringify({ cwd: dir, session_id: 's' }));
      assert.deepEqual(JSON.parse(stdout), QUIET);
      assert.deepEqual(readdirSync(dir), ['notes.txt']);
      assert.equal(statSync(join(dir, 'notes.txt')).mode & 0o777, 0o644);
    }));

  it('no writer: session-start reads the view file; user-prompt spools, folded once later', () =>
    withDir((data) =>
      withDir(async (root) => {
        const said = 'Use British spelling in the docs';
        const guessed = 'The user probably wants emoji in commit messages';
        const prompt = 'PROMPT-please-refactor-module-quokka-8812';
        const task_id = await startTaskAt(data, root, 'session-A', [
          user(said),
          {
            epistemic_status: 'inferred',
            confidence: 0.4,
            statement: guessed,
            source_ref: agentSource,
          },
        ]);
        // the view is sealed: the statement is nowhere in plain text outside the log's own files
        assert.deepEqual(await filesHolding(viewsDir(data), [said]), []);

        const start = await hook(
          'session-start',
          data,
          JSON.stringify({ cwd: root, session_id: 'session-A' }),
        );
        const output = JSON.parse(start.stdout) as Parameters<typeof contextOf>[0];
        assert.equal((output as { suppressOutput?: boolean }).suppressOutput, true);
        assert.ok(contextOf(output).includes(said));
        assert.ok(contextOf(output).includes(task_id));
        assert.ok(!contextOf(output).includes(guessed));
        assert.match(contextOf(output), /1 further claims/);

        // another session of the project: its association token, nothing of the task
        const other = JSON.parse(
          (await hook('session-start', data, JSON.stringify({ cwd: root, session_id: 'S-other' })))
            .stdout,
        ) as Parameters<typeof contextOf>[0];
        assert.match(contextOf(other), /host_session_id="S-other"/);
        assert.ok(!contextOf(other).includes(said));

        const input = { cwd: root, session_id: 'session-A', prompt };
        const prompted = JSON.parse(
          (await hook('user-prompt', data, JSON.stringify(input))).stdout,
        ) as Parameters<typeof contextOf>[0];
        assert.ok(contextOf(prompted).includes(said), 'user-prompt injects the compact snapshot');
        assert.equal(spooled(data).length, 1, 'spooled, no writer ran');
        assert.deepEqual(await filesHolding(data, [prompt]), []);

        const first = await candidatesOf(data, root, task_id);
        assert.deepEqual(
          first.map((x) => [x.origin, x.hook_event]),
          [['hook', 'user-prompt']],
        );
        assert.deepEqual(spooled(data), [], 'the writer folded and removed it');
        assert.deepEqual(await candidatesOf(data, root, task_id), first, 'folded once');
      }),
    ));

  it('a root another context bound under a name of its own does not stop the views', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        // '0' sorts before every sha256 in hex: the writer meets it first on every refresh
        await app.projects.create({ project_id: 'other', name: 'Other' }, { principal: SYSTEM });
        await app.projects.bindRoot(
          { project_id: 'other', root_hash: '0', device: 'd' },
          { principal: SYSTEM },
        );
        const c = await intentClient(app, [root]);
        try {
          await c.ok('intent_start_task', {
            host_session_id: 'S',
            claims: [user('Keep the CLI flags')],
          });
        } finally {
          await c.close();
          await app.close();
        }
        const view = readView(data, rootHashOf(realpathSync(root)));
        assert.deepEqual(view?.tasks[0]?.direct, ['Keep the CLI flags']);
      }),
    ));

  it('the view follows the log: replacement, invalidation, deletion, a running writer', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        const rootHash = rootHashOf(realpathSync(root));
        const viewed = async (wanted: (direct: string[], active: number) => boolean) => {
          for (let i = 0; i < 200; i++) {
            const task = readView(data, rootHash)?.tasks[0];
            if (task && wanted(task.direct, task.active)) return task.direct;
            await new Promise((r) => setTimeout(r, 25));
          }
          assert.fail(`the view never showed it: ${JSON.stringify(readView(data, rootHash))}`);
        };
        try {
          const started = await c.ok('intent_start_task', {
            host_session_id: 'S',
            claims: [user('Keep the CLI flags'), user('Write the docs in French')],
          });
          const task_id = String(started.task_id);
          const [flags, french] = started.claims as unknown as { claim_id: string }[];
          await viewed((d) => d.length === 2);
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
          // while this process is the writer, no close needed: the view is rewritten after writes
          assert.deepEqual(await viewed((d, active) => d.length === 1 && active === 2), [
            'Keep the CLI flags and their short forms',
          ]);
          const context = contextOf(
            runLightHook(data, 'session-start', { cwd: root, session_id: 'S' }),
          );
          assert.deepEqual(
            context.split('\n').filter((l) => l.startsWith('- ')),
            ['- "Keep the CLI flags and their short forms"'],
          );
          assert.match(context.split('\n').at(-1)!, /^\(1 further claims/);
          // a deleted task leaves the view; its old key is gone with the rewrite
          const keysBefore = readdirSync(viewsDir(data)).filter((n) => n.endsWith('.key'));
          await c.ok('intent_delete', { task_id, confirmation: `DELETE TASK ${task_id}` });
          for (let i = 0; i < 200 && (readView(data, rootHash)?.tasks.length ?? 1) > 0; i++)
            await new Promise((r) => setTimeout(r, 25));
          assert.deepEqual(readView(data, rootHash)?.tasks, []);
          const keysAfter = readdirSync(viewsDir(data)).filter((n) => n.endsWith('.key'));
          assert.equal(keysAfter.length, 1);
          assert.ok(!keysBefore.includes(keysAfter[0]!));
        } finally {
          await c.close();
          await app.close();
        }
      }),
    ));

  it('a running writer folds what a Hook spools, without a restart', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const task_id = String(
            (await c.ok('intent_start_task', { host_session_id: 'W' })).task_id,
          );
          const rootHash = rootHashOf(realpathSync(root));
          for (let i = 0; i < 200 && !readView(data, rootHash)?.tasks.length; i++)
            await new Promise((r) => setTimeout(r, 25));
          const prompt = JSON.stringify({ cwd: root, session_id: 'W', prompt: 'hi' });
          const answer = JSON.parse((await hook('user-prompt', data, prompt)).stdout) as Parameters<
            typeof contextOf
          >[0];
          assert.ok(contextOf(answer).includes(task_id));
          let listed: unknown[] = [];
          for (let i = 0; i < 200 && listed.length === 0; i++) {
            listed = (await c.ok('intent_list_candidates', { task_id }))
              .candidates as unknown as unknown[];
            if (listed.length === 0) await new Promise((r) => setTimeout(r, 25));
          }
          assert.equal(listed.length, 1);
        });
      }),
    ));

  it('post-compact flags recovery; the next session-start names the task once', () =>
    withDir((data) =>
      withDir(async (root) => {
        const task_id = await startTaskAt(data, root, 'session-B');
        const session = (id: string) => ({ cwd: root, session_id: id });
        // another session's compaction flags nothing
        runLightHook(data, 'post-compact', session('session-other'));
        assert.doesNotMatch(
          contextOf(runLightHook(data, 'session-start', session('session-B'))),
          /compacted/,
        );

        assert.deepEqual(runLightHook(data, 'post-compact', session('session-B')), QUIET);
        const next = contextOf(runLightHook(data, 'session-start', session('session-B')));
        assert.match(next, /context was compacted/);
        assert.ok(next.includes(`intent_get_snapshot {"task_id":"${task_id}"}`));
        assert.ok(!next.includes('could not be verified'));
        // served once, before and after a writer folds the spool
        assert.doesNotMatch(
          contextOf(runLightHook(data, 'session-start', session('session-B'))),
          /compacted/,
        );
        await candidatesOf(data, root, task_id);
        assert.deepEqual(spooled(data), []);
        assert.doesNotMatch(
          contextOf(runLightHook(data, 'session-start', session('session-B'))),
          /compacted/,
        );
      }),
    ));

  it('a private task suppresses its Hooks: nothing said, nothing spooled', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const task_id = String(
            (await c.ok('intent_start_task', { host_session_id: 'P' })).task_id,
          );
          await c.ok('intent_set_mode', { task_id, mode: 'private', host_session_id: 'P' });
        });
        for (const event of ['session-start', 'user-prompt', 'stop'] as const)
          assert.deepEqual(
            runLightHook(data, event, { cwd: root, session_id: 'P', prompt: 'x' }),
            QUIET,
          );
        assert.deepEqual(spooled(data), []);
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
      assert.deepEqual(JSON.parse(malformed.stdout), QUIET);
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

  it('the spool directory holds only whole records', () =>
    withDir((data) =>
      withDir(async (root) => {
        await startTaskAt(data, root, 'R');
        runLightHook(data, 'stop', { cwd: root, session_id: 'R' });
        assert.deepEqual(
          readdirSync(spoolDir(data)).filter((n) => !n.endsWith('.rec')),
          [],
          'no temporary file left',
        );
      }),
    ));
});
