import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, percentile } from './stats.js';

/**
 * `node --import tsx bench/concurrent-start.ts [dist/cli] [rounds]`: 16 processes started at
 * once on one data dir with no writer running, `rounds` times (default 10) per group: `token
 * create`, `intentlog mcp` (spawn to the answer of a tools/call), and the plugin's Hook
 * (`hook.cjs session-start`, its default 2 s deadline). Per group: how many failed, and the
 * median and worst time from spawn to exit (mcp: to its answer). A Hook that answered without
 * the project's intent hit its deadline (it fails open): counted apart. Issue 28, item 7.
 */
const PROCESSES = 16;
const dist = resolve(process.argv[2] ?? 'dist/cli');
const ROUNDS = Number(process.argv[3]) || 10;
const main = join(dist, 'main.js');
const hook = join(dist, 'hook.cjs');
const env = { ...process.env, INTENTLOG_HOME: '', INTENTLOG_STORE: '' };

type Outcome = { ok: boolean; ms: number; note?: string };

const rpc = (id: number, method: string, params: object) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
const INITIALIZE = rpc(1, 'initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
});
const INITIALIZED = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;

/** Whether the answer to request 2 is there and its envelope says ok. */
const answerOk = (stdout: string): boolean =>
  stdout.split('\n').some((line) => /"id":2[,}]/.test(line) && line.includes('\\"ok\\":true'));

/** Runs node `args`, `stdin` in; `done(stdout)` says when it has answered (default: at exit). */
const run = (
  args: string[],
  stdin: string,
  answered: (stdout: string) => boolean = () => false,
  keepOpen = false,
): Promise<{ code: number | null; stdout: string; ms: number }> =>
  new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    let ms: number | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (ms === undefined && answered(stdout)) {
        ms = performance.now() - started;
        child.stdin.end();
      }
    });
    child.on('close', (code) => done({ code, stdout, ms: ms ?? performance.now() - started }));
    child.stdin.write(stdin);
    if (!keepOpen) child.stdin.end();
  });

const tokenCreate = (dataDir: string, i: number) => async (): Promise<Outcome> => {
  const r = await run([main, 'token', 'create', '--actor', `a${i}`, '--data-dir', dataDir], '');
  return { ok: r.code === 0, ms: r.ms };
};

const mcpCall = (dataDir: string) => async (): Promise<Outcome> => {
  const call = rpc(2, 'tools/call', { name: 'server_info', arguments: {} });
  const r = await run(
    [main, 'mcp', '--data-dir', dataDir],
    INITIALIZE + INITIALIZED + call,
    (out) => /"id":2[,}]/.test(out),
    true,
  );
  return { ok: answerOk(r.stdout), ms: r.ms };
};

const hookCall = (dataDir: string, root: string, statement: string) => async () => {
  const input = JSON.stringify({ cwd: root, session_id: 'bench' });
  const r = await run([hook, 'session-start', '--data-dir', dataDir], input);
  const ran = r.stdout.includes(statement);
  const ok = r.code === 0 && /"continue":true/.test(r.stdout);
  return { ok, ms: r.ms, ...(ok && !ran ? { note: 'fail-open' } : {}) };
};

/**
 * A project (root `root`) with the Hooks' session's task holding one direct statement, through
 * `intentlog mcp`.
 */
const seed = async (dataDir: string, root: string, statement: string): Promise<void> => {
  await mkdir(root, { recursive: true });
  const claim = {
    epistemic_status: 'explicit',
    basis: 'direct_statement',
    statement,
    source_ref: { kind: 'user_event', event_id: 'u-1' },
  };
  const start = rpc(2, 'tools/call', {
    name: 'intent_start_task',
    // the session's own task: SessionStart shows only the task its session started (issue 33)
    arguments: { project_root: root, host_session_id: 'bench', claims: [claim] },
  });
  const r = await run(
    [main, 'mcp', '--surface', 'intent', '--data-dir', dataDir],
    INITIALIZE + INITIALIZED + start,
    (out) => /"id":2[,}]/.test(out),
    true,
  );
  if (!answerOk(r.stdout)) throw new Error(`seeding failed: ${r.stdout}`);
};

const scratch = await mkdtemp(join(tmpdir(), 'intentlog-bench-concurrent-'));
const rows: { group: string; outcomes: Outcome[] }[] = [];
try {
  const groups: [string, (dataDir: string, round: number) => Promise<() => Promise<Outcome>[]>][] =
    [
      [
        'token create',
        async (d) => () => Array.from({ length: PROCESSES }, (_, i) => tokenCreate(d, i)()),
      ],
      [
        'mcp: initialize + tools/call',
        async (d) => () => Array.from({ length: PROCESSES }, mcpCall(d)),
      ],
      [
        'Hook session-start (2 s deadline)',
        async (d, round) => {
          const root = join(scratch, `project-${round}`);
          const statement = `Answer every Hook with the intent ${round}`;
          await seed(d, root, statement);
          return () => Array.from({ length: PROCESSES }, hookCall(d, root, statement));
        },
      ],
    ];
  for (const [group, prepare] of groups) {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = join(scratch, `${group.split(' ')[0]}-${round}`);
      const start = await prepare(dataDir, round);
      outcomes.push(...(await Promise.all(start())));
    }
    rows.push({ group, outcomes });
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `\n<!-- bench/concurrent-start.ts ${dist} ${ROUNDS}: ${ROUNDS} rounds of ${PROCESSES}, ` +
    `${cpus().length} cores, load ${load} -->`,
);
console.log('| group | failed | answered at its deadline | median ms | p95 ms | worst ms |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const { group, outcomes } of rows) {
  const ms = outcomes.map((o) => o.ms);
  const failed = outcomes.filter((o) => !o.ok).length;
  const late = outcomes.filter((o) => o.note === 'fail-open').length;
  console.log(
    `| ${group} | ${failed} of ${outcomes.length} | ${late} | ${Math.round(median(ms))} | ` +
      `${Math.round(percentile(ms, 95))} | ${Math.round(Math.max(...ms))} |`,
  );
}
