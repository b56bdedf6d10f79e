/**
 * The building loop with 32 concurrent MCP sessions over stateful HTTP on a 2,000-story map
 * (issue 15, "Performance"): each session runs start_story → save_plan → save_tests →
 * report_criteria → complete_story, then starts the next story complete_story named (a real
 * race: sessions finishing together are told the same story), or, refused, the first story of
 * the build order no agent has taken yet (what an agent reading the order would pick; the
 * bench's shared cursor stands in for get_build_order, which is not what is measured here). Reports loops/min, p50/p99 of each call, and checks that no
 * claim was lost: every story completed exactly once, no story claimed by two sessions (from
 * the log), every refusal of a held story naming its holder, the holder the one that claimed it.
 *
 * Run alone: `npm run bench:storymap-loop` (compiled, as the product ships), or
 * `node --import tsx bench/storymap-loop.ts`. Two phases on one server: LOOPS (default 640) loops
 * as fast as the sessions go (the loops/min figure), then PACED_LOOPS (320) at PACE (200)
 * loops/min, each session's loops evenly spaced (the latencies at the target's rate: a closed
 * loop at saturation queues every call behind the other 31 sessions' work). SESSIONS (32),
 * STORIES (2000);
 * CPU_PROFILE=<file> writes a CPU profile of the loop alone (not the seeding).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { SYSTEM } from '../src/commands/principal.js';
import { serveOverHttp } from '../src/mcp/serve.js';
import { resolveSurfaces } from '../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../src/modules/index.js';
import { fmt, median, percentile } from './stats.js';
import { FOUNDER, markReady, seedMap } from './storymap-seed.js';

const SESSIONS = Number(process.env.SESSIONS ?? 32);
const STORIES = Number(process.env.STORIES ?? 2000);
const LOOPS = Number(process.env.LOOPS ?? 640);
/** the second phase: PACED_LOOPS loops at PACE loops/min, each session's loops evenly spaced */
const PACED_LOOPS = Number(process.env.PACED_LOOPS ?? 320);
const PACE = Number(process.env.PACE ?? 200);
const CALLS = ['start_story', 'save_plan', 'save_tests', 'report_criteria', 'complete_story'];

type Envelope = {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: { code: string; message: string; details?: Record<string, unknown> };
};
type Criterion = { id: string; priority: string };

const load0 = loadavg();
const dir = await mkdtemp(join(tmpdir(), 'intentlog-storymap-loop-'));
const app = await openIntentlog({ dataDir: join(dir, 'data') });
const REFUSED = 'start_story (refused)';
const newTimes = () => new Map<string, number[]>([...CALLS, REFUSED].map((c) => [c, []]));
let times = newTimes();

try {
  const t0 = performance.now();
  const { project_id, rows } = await seedMap(app, {
    stories: STORIES,
    criteria: 4,
    edges: Math.round(STORIES * 1.5),
    batch: 100,
  });
  const seeded = performance.now() - t0;
  const t1 = performance.now();
  await markReady(
    app,
    project_id,
    rows.map((r) => r.id),
  );
  await app.waitFor(await app.log.head());
  const readied = performance.now() - t1;

  const issued = await app.tokens.issue(FOUNDER, 'bench', SYSTEM);
  await app.waitFor(issued.position);
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(surfacesOf(modules), 'storymap'),
    log: pino({ level: 'silent' }),
    host: '127.0.0.1',
    port: 0,
    stateful: true,
  });
  const connect = async (i: number) => {
    const transport = new StreamableHTTPClientTransport(new URL(listening.url), {
      requestInit: { headers: { Authorization: `Bearer ${issued.token}` } },
    });
    const client = new Client({ name: `agent-${i}`, version: '1' });
    await client.connect(transport);
    assert.ok(transport.sessionId, 'stateful HTTP gives every client its own Mcp-Session-Id');
    return { client, session_id: transport.sessionId };
  };
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => connect(i)));
  assert.equal(new Set(sessions.map((s) => s.session_id)).size, SESSIONS);

  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const start = performance.now();
    const answer = await client.callTool({ name, arguments: { project_id, ...args } });
    const ms = performance.now() - start;
    const e = answer.structuredContent as Envelope;
    times.get(e.ok || name !== 'start_story' ? name : REFUSED)!.push(ms);
    return e;
  };
  const must = async (client: Client, name: string, args: Record<string, unknown>) => {
    const e = await call(client, name, args);
    if (!e.ok) throw new Error(`${name}: ${JSON.stringify(e.error)}`);
    return e.result!;
  };

  const order = rows.map((r) => r.id); // seeded in build sequence
  const completedBy = new Map<string, string[]>(); // story → sessions that completed it
  const refusals: { story_id: string; session_id: string; holder: string | undefined }[] = [];
  const otherRefusals: { code: string; message: string }[] = [];
  let alreadyDone = 0;
  let loops = 0;
  let shared = 0; // the build order as every agent reads it: the first story nobody has taken

  const tried = new Map(sessions.map((s) => [s.session_id, new Set<string>()]));
  const hints = new Map<string, string | null>();
  const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, Math.max(0, ms)));

  /**
   * One agent: works until `until` stories are done between them all; paced, it starts a loop
   * every `every` ms (the first after `offset`), else the next as soon as the last ends.
   */
  const agent = async (
    { client, session_id }: (typeof sessions)[number],
    until: number,
    every = 0,
    offset = 0,
  ) => {
    const mine = tried.get(session_id)!;
    let hint = hints.get(session_id) ?? null;
    let due = performance.now() + offset;
    const candidate = () => {
      if (hint && !mine.has(hint)) return hint;
      while (shared < order.length && mine.has(order[shared]!)) shared++;
      return order[shared++] ?? null;
    };
    while (loops < until) {
      if (every > 0) {
        await sleep(due - performance.now());
        if (loops >= until) break;
      }
      const story_id = candidate();
      if (!story_id) break;
      mine.add(story_id);
      hint = null;
      const started = await call(client, 'start_story', { story_id });
      if (!started.ok) {
        const { code, message, details } = started.error!;
        const holder = (details?.holder as { session_id?: string } | undefined)?.session_id;
        if (code === 'conflict') refusals.push({ story_id, session_id, holder });
        // a hint followed after another session finished the story (paced: seconds later)
        else if (code === 'invalid_state' && ['done', 'approved'].includes(String(details?.status)))
          alreadyDone++;
        else otherRefusals.push({ code, message });
        continue;
      }
      const criteria = started.result!.acceptance_criteria as Criterion[];
      const n = loops + refusals.length;
      await must(client, 'save_plan', {
        story_id,
        steps: [
          { text: 'Write the handler', files: [`src/story-${story_id}.ts`] },
          { text: 'Test it', files: [`test/story-${story_id}.test.ts`] },
        ],
        risk: 'none to speak of',
      });
      await must(client, 'save_tests', {
        story_id,
        tests: criteria.map((c, k) => ({
          title: `criterion ${k}`,
          criterion_ids: [c.id],
          file: `test/story-${story_id}.test.ts`,
          full_name: `story ${n} > criterion ${k}`,
        })),
      });
      await must(client, 'report_criteria', {
        story_id,
        results: criteria.map((c) => ({ criterion_id: c.id, status: 'pass' })),
      });
      const done = await must(client, 'complete_story', {
        story_id,
        summary: 'Built it.',
        implemented_files: [`src/story-${story_id}.ts`],
      });
      completedBy.set(story_id, [...(completedBy.get(story_id) ?? []), session_id]);
      loops++;
      hint = (done.next_story as { id: string } | null)?.id ?? null;
      due += every;
    }
    hints.set(session_id, hint);
  };

  const profiler = process.env.CPU_PROFILE ? new Session() : null;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  await profiler?.post('Profiler.start');
  const tLoop = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(sessions.map((s) => agent(s, LOOPS)));
  const loopMs = performance.now() - tLoop;
  const saturated = loops;
  const cpu = process.cpuUsage(cpu0);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(process.env.CPU_PROFILE!, JSON.stringify(profile));
  }
  const fullTimes = times;
  times = newTimes();
  const every = (SESSIONS * 60_000) / PACE;
  const tPaced = performance.now();
  await Promise.all(
    sessions.map((s, i) => agent(s, saturated + PACED_LOOPS, every, (i * every) / SESSIONS)),
  );
  const pacedMs = performance.now() - tPaced;
  const pacedTimes = times;
  await Promise.all(sessions.map((s) => s.client.close()));
  await listening.close();

  // The log's own account: who claimed what, who completed what.
  const claims = new Map<string, Set<string>>();
  const completions = new Map<string, number>();
  let takeovers = 0;
  await app.waitFor(await app.log.head());
  for (let after = 0; ;) {
    const page = await app.log.readAll({ after, limit: 1000 });
    if (page.length === 0) break;
    for (const e of page) {
      const d = e.data as { story_id?: string; session_id?: string; took_over_from?: unknown };
      if (e.type === 'story.claimed') {
        claims.set(d.story_id!, (claims.get(d.story_id!) ?? new Set()).add(d.session_id!));
        if (d.took_over_from) takeovers++;
      }
      if (e.type === 'story.completed')
        completions.set(d.story_id!, (completions.get(d.story_id!) ?? 0) + 1);
    }
    after = page[page.length - 1]!.global_position;
  }
  const twice = [...completedBy].filter(([, by]) => by.length !== 1);
  const twiceInLog = [...completions].filter(([, n]) => n !== 1);
  const sharedClaims = [...claims].filter(([, s]) => s.size !== 1);
  const unfinished = [...claims.keys()].filter((id) => !completions.has(id));
  const unnamed = refusals.filter(
    (r) => !r.holder || r.holder === r.session_id || !claims.get(r.story_id)?.has(r.holder),
  );
  const checks = {
    completed: loops,
    completed_in_log: completions.size,
    completed_twice: twice.length + twiceInLog.length,
    claimed_by_two_sessions: sharedClaims.length,
    takeovers,
    claimed_not_completed: unfinished.length,
    held_refusals: refusals.length,
    held_refusals_without_holder: unnamed.length,
    refused_as_already_done: alreadyDone,
    other_refusals: otherRefusals.length,
  };

  const cells = (ms: number[]) =>
    ms.length === 0
      ? '0 | — | —'
      : `${ms.length} | ${fmt(median(ms))} | ${fmt(percentile(ms, 99))}`;
  const row = (name: string) =>
    `| ${name} | ${cells(fullTimes.get(name)!)} | ${cells(pacedTimes.get(name)!)} |`;
  const load1 = loadavg();
  const lines = [
    `map: ${STORIES} stories (4 criteria each), seeded in ${fmt(seeded / 1000)} s, marked ready (one founder command each, 16 in flight) in ${fmt(readied / 1000)} s`,
    `${SESSIONS} sessions over stateful HTTP, as fast as they go: ${saturated} loops in ${fmt(loopMs / 1000)} s = ${fmt((saturated / loopMs) * 60_000)} loops/min (target ≥ 200)`,
    `the loop's CPU time (this process: server and clients): ${fmt((cpu.user + cpu.system) / 1000 / saturated)} ms a loop`,
    `then paced at ${PACE} loops/min: ${loops - saturated} loops in ${fmt(pacedMs / 1000)} s = ${fmt(((loops - saturated) / pacedMs) * 60_000)} loops/min`,
    `load average: ${load0.map((l) => l.toFixed(1)).join(' ')} at the start, ${load1.map((l) => l.toFixed(1)).join(' ')} at the end`,
    '',
    `| call | as fast as they go: n | p50 ms | p99 ms | paced at ${PACE}/min: n | p50 ms | p99 ms (target < 150) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[...CALLS, REFUSED].map(row),
    '',
    `no lost claim: ${JSON.stringify(checks)}`,
    ...otherRefusals.slice(0, 5).map((r) => `  other refusal: ${r.code} ${r.message}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  assert.equal(checks.completed_twice, 0, 'a story completed twice');
  assert.equal(checks.completed_in_log, loops, 'the log holds every completion the bench saw');
  assert.equal(checks.claimed_by_two_sessions, 0, 'two sessions claimed one story');
  assert.equal(checks.claimed_not_completed, 0, 'a claimed story was left unfinished');
  assert.equal(checks.held_refusals_without_holder, 0, 'a refusal did not name the holder');
  assert.equal(checks.other_refusals, 0, 'a start was refused for another reason');
  process.stdout.write('no lost claim: checked\n');
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
