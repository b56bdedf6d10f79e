/**
 * The story map on a map of 2,000 stories, 8,000 criteria and 3,000 dependency edges, served
 * over HTTP at /mcp/storymap from a LevelDB data dir: get_build_order and get_session_context
 * p50/p99, update_stories of 50 rows p50, and the build-order read model's rebuild rate beside a
 * raw read of the same log. Run once: `npx tsx bench/storymap.ts` (noisy shared machine).
 * Beside wall times it prints CPU time (this process: the MCP client and the server both), which
 * a loaded machine distorts far less: compare those when the machine is shared.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { storymap } from '../src/app/storymap/index.js';
import { SYSTEM, type Principal } from '../src/commands/principal.js';
import { serveOverHttp } from '../src/mcp/serve.js';
import { modules, openIntentlog, surfacesOf } from '../src/modules/index.js';
import { STORYMAP_BUILD_ORDER } from '../src/projections/storymap/build-order.js';
import { fmt, median, percentile } from './stats.js';
import { newMap } from './storymap-seed.js';

const STORIES = 2000;
const CRITERIA_PER_STORY = 4;
const EDGES = 3000;
const SAMPLES = 200;

const dir = await mkdtemp(join(tmpdir(), 'intentlog-storymap-bench-'));
const app = await openIntentlog({ dataDir: join(dir, 'data') });
const owner: Principal = { kind: 'actor', actor_id: 'founder' };
const sm = storymap(app);

const build = async () => {
  const project_id = await newMap(app, owner);
  for (let start = 0; start < STORIES; start += 100) {
    const stories = Array.from({ length: 100 }, (_, i) => ({
      title: `Story ${start + i + 1}`,
      activity: `Activity ${(start + i) % 12}`,
      release_order: 1,
      acceptance_criteria: Array.from({ length: CRITERIA_PER_STORY }, (_, c) => ({
        text: `Given ${c}, when ${i}, then done`,
        priority: c === 0 ? 'must' : 'should',
      })),
    }));
    await sm.createStories({ project_id, stories }, owner);
  }
  await sm.reads.fresh();
  const rows = (await sm.reads.rows(project_id)).sort((a, b) => a.number - b.number);
  // 3,000 edges, each to an earlier story: a DAG
  const deps = rows.map((_, i) =>
    (i === 0 ? [] : i % 2 === 0 ? [i - 1, Math.floor(i / 2)] : [i - 1]).filter(
      (j) => j >= 0 && j < i,
    ),
  );
  let edges = 0;
  const wanted = deps.map((d) => d.filter(() => edges++ < EDGES));
  for (let start = 0; start < rows.length; start += 100)
    await sm.updateStories(
      {
        project_id,
        stories: rows.slice(start, start + 100).map((r, k) => ({
          id: r.id,
          dependencies: wanted[start + k]!.map((j) => rows[j]!.id),
          build_sequence: start + k + 1,
        })),
      },
      owner,
    );
  return { project_id, rows, edges: Math.min(edges, EDGES) };
};

const t0 = performance.now();
const { project_id, rows, edges } = await build();
await app.waitFor(await app.log.head());
const buildMs = performance.now() - t0;

const token = (await app.tokens.issue(owner, 'bench', SYSTEM)).token;
await app.waitFor(await app.log.head());
const listening = await serveOverHttp({
  app,
  selection: [],
  mounted: surfacesOf(modules),
  log: pino({ level: 'silent' }),
  host: '127.0.0.1',
  port: 0,
  stateful: false,
});
const transport = new StreamableHTTPClientTransport(new URL(`${listening.url}/storymap`), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);

/** CPU milliseconds (user + system) of this process since `from`: client and server both. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

const timed = async (name: string, args: Record<string, unknown>, n: number) => {
  const ms: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const answer = await client.callTool({ name, arguments: args });
    ms.push(performance.now() - start);
    if (!(answer.structuredContent as { ok: boolean }).ok)
      throw new Error(`${name}: ${JSON.stringify(answer.structuredContent)}`);
  }
  return { p50: median(ms), p99: percentile(ms, 99), cpu: cpuMs(cpu) / n };
};

const sized = await client.callTool({ name: 'get_build_order', arguments: { project_id } });
const answerBytes = Buffer.byteLength(JSON.stringify(sized));
const textBytes = Buffer.byteLength(JSON.stringify(sized.content));
const structuredBytes = Buffer.byteLength(JSON.stringify(sized.structuredContent));
const order = await timed('get_build_order', { project_id }, SAMPLES);
const session = await timed('get_session_context', { project_id }, SAMPLES);
const updates: number[] = [];
for (let i = 0; i < 20; i++) {
  const slice = rows.slice((i * 50) % STORIES, ((i * 50) % STORIES) + 50);
  const start = performance.now();
  await client.callTool({
    name: 'update_stories',
    arguments: {
      project_id,
      stories: slice.map((r) => ({ id: r.id, priority: i % 2 ? 'must' : 'could' })),
    },
  });
  updates.push(performance.now() - start);
}
await client.close();
await listening.close();

const head = await app.log.head();
// The raw read and the rebuild alternate, five rounds, medians compared: on a shared machine
// one round of each measures the neighbours as much as the code (three rounds still swung
// 44-62% from one run to the next).
const rawMs: number[] = [];
const rebuildMs: number[] = [];
const rawCpu: number[] = [];
const rebuildCpu: number[] = [];
let events = 0;
for (let round = 0; round < 5; round++) {
  const rawStart = performance.now();
  let cpu = process.cpuUsage();
  events = 0;
  for (let after = 0; ;) {
    const page = await app.log.readAll({ after, limit: 1000 });
    if (page.length === 0) break;
    events += page.length;
    after = page[page.length - 1]!.global_position;
  }
  rawMs.push(performance.now() - rawStart);
  rawCpu.push(cpuMs(cpu));
  const rebuildStart = performance.now();
  cpu = process.cpuUsage();
  await app.projections.rebuild([STORYMAP_BUILD_ORDER]);
  rebuildMs.push(performance.now() - rebuildStart);
  rebuildCpu.push(cpuMs(cpu));
}
const rate = (n: number, ms: number) => (n / ms) * 1000;
const lines = [
  `map: ${STORIES} stories, ${STORIES * CRITERIA_PER_STORY} criteria, ${edges} dependency edges; ${head} events; built in ${fmt(buildMs / 1000)} s`,
  `get_build_order over HTTP: p50 ${fmt(order.p50)} ms, p99 ${fmt(order.p99)} ms (${SAMPLES} calls; result ${fmt(answerBytes / 1024)} KB as JSON: text block ${fmt(textBytes / 1024)} KB, structuredContent ${fmt(structuredBytes / 1024)} KB; ${fmt(order.cpu)} ms CPU a call, client and server)`,
  `get_session_context over HTTP: p50 ${fmt(session.p50)} ms, p99 ${fmt(session.p99)} ms (${SAMPLES} calls; ${fmt(session.cpu)} ms CPU a call)`,
  `update_stories, 50 rows: p50 ${fmt(median(updates))} ms, p99 ${fmt(percentile(updates, 99))} ms (20 calls)`,
  `rebuild of storymap.build-order (median of 5, alternating with the raw read): ${fmt(rate(events, median(rebuildMs)))} events/s; the same log read raw (readAll, upcast): ${fmt(rate(events, median(rawMs)))} events/s = ${fmt((median(rawMs) / median(rebuildMs)) * 100)}%`,
  `the same in CPU time (medians, ms): raw read ${fmt(median(rawCpu))}, rebuild ${fmt(median(rebuildCpu))} = ${fmt((median(rawCpu) / median(rebuildCpu)) * 100)}%`,
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
await app.close();
await rm(dir, { recursive: true, force: true });
