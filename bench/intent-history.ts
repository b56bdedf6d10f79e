/**
 * Intent at small and large history, side by side in one run (issue 39): each intent tool on a
 * task of 100 and of 10,000 claims, through the MCP surface (an in-process client, the same
 * tools and answers as over stdio) on the durable LevelDB store. A call's figures are the
 * process CPU (user + system) and the wall time from the call until every read model has
 * folded what it appended, and the read-model bytes it wrote (keys plus msgpack values),
 * medians of CALLS calls, small and large interleaved. Then a restart, and the first command
 * and the first snapshot on each task.
 *
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-build/bench/intent-history.js
 *
 * CLAIMS (10000), CALLS (25) change the sizes. `intent_export` as a graph is left out: a graph
 * holds at most 5,000 claims (GRAPH_CLAIMS_MAX), so the large task's export fails its schema.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { intentSurface } from '../src/mcp/intent/index.js';
import { serverFactory } from '../src/mcp/server.js';
import { resolveSurfaces } from '../src/mcp/surfaces/index.js';
import { openIntentlog } from '../src/modules/index.js';
import {
  compareSizes,
  countWrites,
  step,
  type Figures,
  type Row,
  type Size,
  type Step,
} from './history-harness.js';
import { fmt, median } from './stats.js';

const CLAIMS = Number(process.env.CLAIMS ?? 10_000);
const CALLS = Number(process.env.CALLS ?? 25);
const SMALL = 100;

const load0 = loadavg();
const dir = await mkdtemp(join(tmpdir(), 'intentlog-bench-intent-'));
const root = join(dir, 'root');
await mkdir(root);

type Result = { ok: boolean; result?: Record<string, unknown>; error?: { code: string } };
const open = async () => {
  const app = await openIntentlog({ dataDir: join(dir, 'data') });
  countWrites(app);
  const factory = serverFactory({
    app,
    selection: resolveSurfaces([intentSurface], 'intent'),
    transport: 'stdio',
    principalOf: () => ({ kind: 'system' }),
    log: pino({ level: 'silent' }),
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: { roots: {} } });
  client.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: pathToFileURL(root).href, name: 'root' }],
  }));
  await client.connect(clientSide);
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = (await client.callTool({ name, arguments: args })).structuredContent as Result;
    if (!answer.ok) throw new Error(`${name}: ${JSON.stringify(answer.error)}`);
    return answer.result as Record<string, never>;
  };
  const close = async () => {
    await client.close();
    await app.close();
  };
  return { app, ok, close };
};

let server = await open();
const user = { kind: 'user_event', event_id: 'u-1' };
const agent = { kind: 'agent_turn', event_id: 'turn-1' };
const tool = { kind: 'tool_result', sha256: 'a'.repeat(64) };
let said = 0;
const text = (what: string) => `${what} ${++said}: keep the change small and reviewed`;

const add = {
  explicit: (task_id: string) =>
    server.ok('intent_add_explicit', {
      task_id,
      statement: text('explicit'),
      basis: 'direct_statement',
      source_ref: user,
    }),
  inference: (task_id: string) =>
    server.ok('intent_add_inference', {
      task_id,
      statement: text('inferred'),
      confidence: 0.6,
      source_ref: agent,
    }),
  evidence: (task_id: string) =>
    server.ok('intent_add_evidence', { task_id, statement: text('evidence'), source_ref: tool }),
  unknown: (task_id: string) =>
    server.ok('intent_mark_unknown', {
      task_id,
      statement: text('unknown'),
      affects_decision: 'which store to use',
      source_ref: agent,
    }),
  dispute: (task_id: string, claim_ids: string[]) =>
    server.ok('intent_mark_dispute', {
      task_id,
      statement: text('dispute'),
      claim_ids,
      source_ref: agent,
    }),
};

/** A task of `n` claims of every kind: mostly inferences, a few of each other kind. */
const seeded = async (n: number) => {
  const task_id = String(
    (await server.ok('intent_start_task', { request_id: `start-${n}` })).task_id,
  );
  const kinds = ['inference', 'inference', 'inference', 'evidence', 'explicit', 'unknown'] as const;
  const ids: string[] = [];
  for (let i = 0; i < n; i += 8)
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(8, n - i) }, async (_, k) =>
          (i + k) % 50 === 49 && ids.length > 2
            ? String((await add.dispute(task_id, ids.slice(-2))).claim_id)
            : String((await add[kinds[(i + k) % kinds.length]!](task_id)).claim_id),
        ),
      )),
    );
  return String(task_id);
};

const rows = new Map<string, Row>();
const compare = (...steps: Step[]) => compareSizes(rows, () => server.app, CALLS, ...steps);

const t0 = performance.now();
const tasks: Record<Size, string> = { small: await seeded(SMALL), large: await seeded(CLAIMS) };
await server.app.waitFor(await server.app.log.head());
const built = (performance.now() - t0) / 1000;
// LevelDB compacts what the build wrote on threads of this process: let it finish first
await new Promise((resolve) => setTimeout(resolve, 10_000));

const snapshot = (size: Size) => server.ok('intent_get_snapshot', { task_id: tasks[size] });
// the last claim each kind of step added, per size: what the next step works on
const last: Record<Size, string[]> = { small: [], large: [] };
const kept = async (size: Size, added: Promise<Record<string, never>>) => {
  last[size].push(String((await added).claim_id));
};

await compare(
  step('add_inference + get_snapshot', "the issue's row: a claim, then the snapshot", async (s) => {
    await kept(s, add.inference(tasks[s]));
    await snapshot(s);
  }),
);
await compare(
  step('intent_add_explicit', 'a user statement', (s) => kept(s, add.explicit(tasks[s]))),
  step('intent_add_inference', '', (s) => kept(s, add.inference(tasks[s]))),
  step('intent_add_evidence', '', (s) => kept(s, add.evidence(tasks[s]))),
  step('intent_mark_unknown', '', (s) => kept(s, add.unknown(tasks[s]))),
  step('intent_mark_dispute', 'over the two claims added last', (s) =>
    kept(s, add.dispute(tasks[s], last[s].slice(-3, -1))),
  ),
  step('intent_replace_claim', 'the dispute, by an inference', (s) =>
    kept(
      s,
      server.ok('intent_replace_claim', {
        task_id: tasks[s],
        supersedes: [last[s].at(-1)],
        claim: {
          epistemic_status: 'inferred',
          confidence: 0.7,
          statement: text('replacement'),
          source_ref: agent,
        },
      }),
    ),
  ),
  step('intent_invalidate', 'the unknown added above', (s) =>
    server.ok('intent_invalidate', {
      task_id: tasks[s],
      claim_id: last[s].at(-3),
      reason: 'answered',
      source_ref: user,
    }),
  ),
  step('intent_get_snapshot', 'after the changes above', snapshot),
);
await compare(
  step('intent_get_snapshot (again)', 'nothing changed since the last', snapshot),
  step('intent_status', '', () => server.ok('intent_status')),
  step('intent_list_candidates', '', (s) =>
    server.ok('intent_list_candidates', { task_id: tasks[s] }),
  ),
  step('intent_export (summary)', '', (s) =>
    server.ok('intent_export', { task_id: tasks[s], format: 'summary' }),
  ),
  step('intent_start_task (associate)', 'a new host session takes the task over', (s, i) =>
    server.ok('intent_start_task', { task_id: tasks[s], host_session_id: `session-${s}-${i}` }),
  ),
  step('intent_set_mode', 'off, then on (two calls)', async (s) => {
    await server.ok('intent_set_mode', { task_id: tasks[s], mode: 'off' });
    await server.ok('intent_set_mode', { task_id: tasks[s], mode: 'on' });
  }),
);
await compare(
  step(
    'intent_delete (claim)',
    'an inference added for it; checks views, export, disk',
    async (s) => {
      const { claim_id } = await add.inference(tasks[s]);
      await server.ok('intent_delete', {
        task_id: tasks[s],
        claim_id,
        confirmation: `DELETE CLAIM ${claim_id}`,
      });
    },
  ),
);

// the first calls after a restart: nothing of either task is in this process
const restart: Record<string, Record<Size, number>> = {};
for (const [name, call] of [
  ['first add_inference after a restart', (s: Size) => add.inference(tasks[s])],
  ['first get_snapshot after a restart', snapshot],
] as const) {
  restart[name] = { small: 0, large: 0 };
  for (const size of ['small', 'large'] as const) {
    await server.close();
    server = await open();
    await server.app.waitFor(await server.app.log.head());
    const t = performance.now();
    await call(size);
    restart[name][size] = performance.now() - t;
  }
}
await server.close();
await rm(dir, { recursive: true, force: true });

const cell = (f: Figures) => `${fmt(median(f.cpu))} / ${fmt(median(f.wall))}`;
const kb = (f: Figures) => fmt(median(f.bytes) / 1024);
console.log(
  `\nintent history: tasks of ${SMALL} and ${CLAIMS} claims (built in ${built.toFixed(0)} s), ` +
    `${CALLS} calls each; load ${load0.map((l) => l.toFixed(1)).join(' ')}\n`,
);
console.log(
  '| call | small: CPU / wall ms | large: CPU / wall ms | CPU ratio | read-model KB small / large | |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [name, { small, large, note }] of rows)
  console.log(
    `| ${name} | ${cell(small)} | ${cell(large)} | ${(median(large.cpu) / median(small.cpu)).toFixed(2)} | ${kb(small)} / ${kb(large)} | ${note} |`,
  );
for (const [name, at] of Object.entries(restart))
  console.log(`| ${name} | ${fmt(at.small)} wall | ${fmt(at.large)} wall | | | |`);
