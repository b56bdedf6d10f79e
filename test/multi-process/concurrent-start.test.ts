// Processes that start together on one data dir (issue 28, item 7): 16 CLI commands, 16
// `intentlog mcp` servers, 16 Hooks, each group at once, with no writer running before. Every
// one must do its work: whoever takes the store's lock is the writer, everyone else a follower,
// and nobody reads the store's files without the lock (the holder's open deletes them).
// INTENTLOG_START_ROUNDS sets the rounds (default 1); bench/RESULTS.md has a 10-round run.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { resultOf, stdioClient } from '../e2e/harness.js';
import { intentClient, openAt, userSource } from '../intent/harness.js';
import { intentlogHookArgs } from '../support/intentlog-bin.js';

const PROCESSES = 16;
const ROUNDS = Number(process.env.INTENTLOG_START_ROUNDS) || 1;

/** A data dir holding one project (its root `root`) with a task and one direct statement. */
const projectWithIntent = async (dir: string, root: string, statement: string) => {
  await mkdir(root, { recursive: true });
  const app = await openAt(dir);
  const client = await intentClient(app, [root]);
  try {
    const claim = { epistemic_status: 'explicit', basis: 'direct_statement', statement };
    // the session the Hooks below run in: a SessionStart injects its own session's task
    await client.ok('intent_start_task', {
      host_session_id: 'concurrent',
      claims: [{ ...claim, source_ref: userSource }],
    });
  } finally {
    await client.close();
    await app.close();
  }
};

type Ran = { code: number | null; stdout: string; stderr: string; ms: number };

/** Runs node with these arguments, `stdin` on its standard input; how it ended and how long. */
const run = (args: string[], stdin = ''): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, INTENTLOG_HOME: '', INTENTLOG_STORE: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) }),
    );
    child.stdin.end(stdin);
  });

const together = <T>(body: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: PROCESSES }, (_, i) => body(i)));

describe(`${PROCESSES} processes start together on one data dir, ${ROUNDS} rounds`, () => {
  it('CLI commands: every `token create` succeeds and every token is kept', () =>
    withDataDir(async (dir) => {
      for (let round = 0; round < ROUNDS; round++) {
        const created = await together((i) =>
          cliIn(dir, ['token', 'create', '--actor', `r${round}-c${i}`]),
        );
        created.forEach((r, i) => assert.equal(r.code, 0, `r${round}-c${i}: ${r.stderr}`));
      }
      const listed = await cliIn(dir, ['token', 'list']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.stdout.trim().split('\n').length, ROUNDS * PROCESSES);
    }));

  it('`intentlog mcp`: every server answers initialize and a tool call', () =>
    withDataDir(async (dir) => {
      for (let round = 0; round < ROUNDS; round++) {
        const servers = await Promise.allSettled(
          Array.from({ length: PROCESSES }, () => stdioClient(dir)),
        );
        try {
          const answers = await Promise.allSettled(
            servers.map(async (s) => {
              if (s.status === 'rejected') throw s.reason;
              const info = await resultOf(s.value.client, 'server_info').catch((e: Error) => {
                throw new Error(`${e.message}\n${s.value.stderr()}`);
              });
              assert.equal(typeof info.version, 'string');
            }),
          );
          const failed = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
          assert.deepEqual(failed, [], `round ${round}: ${failed.length} servers failed`);
        } finally {
          await Promise.all(
            servers.map((s) => (s.status === 'fulfilled' ? s.value.client.close() : undefined)),
          );
        }
      }
    }));

  it('Hooks: every `intentlog-hook session-start` answers with the project’s intent', () =>
    withDataDir(async (dir) => {
      const root = `${dir}-project`;
      const statement = 'Keep every Hook answer under the host timeout';
      await projectWithIntent(dir, root, statement);
      const input = JSON.stringify({ cwd: root, session_id: 'concurrent' });
      // a deadline far above the default: what is checked is that each one ran (its answer
      // holds the statement) and failed nowhere; how fast they answer is measured in bench/
      const args = intentlogHookArgs(['session-start', '--data-dir', dir, '--timeout', '60000']);
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await together(() => run(args, input));
        for (const [i, answer] of answers.entries()) {
          assert.equal(answer.code, 0, `hook ${i}: ${answer.stderr}`);
          const output = JSON.parse(answer.stdout) as {
            continue: boolean;
            hookSpecificOutput?: { additionalContext: string };
          };
          assert.equal(output.continue, true);
          assert.ok(
            output.hookSpecificOutput?.additionalContext.includes(statement),
            `round ${round}, hook ${i} answered without running: ${answer.stdout}`,
          );
        }
      }
    }));
});
