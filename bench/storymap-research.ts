/**
 * research over a story map of 10,000 stories (2 criteria each) and 10,000 notes, LevelDB data
 * dir, called through the MCP tool path (a client over HTTP at /mcp/storymap, the token's
 * principal): the first question (builds the index), p50/p99 of 200 questions on a stable map,
 * and a question right after a write (the index catches up by cursor). Target: p50 under 30 ms.
 * Seeding goes through the command path in batches (bench/storymap-seed.ts: create_stories of
 * 500 rows per atomic append, then update_stories of 500 for the notes).
 * Run once: `npm run bench:storymap-research` or `node --import tsx bench/storymap-research.ts`
 * (noisy shared machine). STORIES (default 10000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { storymap } from '../src/app/storymap/index.js';
import { SYSTEM } from '../src/commands/principal.js';
import { serveOverHttp } from '../src/mcp/serve.js';
import { modules, openIntentlog, surfacesOf } from '../src/modules/index.js';
import { fmt, median, percentile } from './stats.js';
import { FOUNDER, seedMap } from './storymap-seed.js';

const STORIES = Number(process.env.STORIES ?? 10_000);
const BATCH = 500;
const QUESTIONS = 200;

// a deterministic vocabulary: 3,000 made-up words over a few product words
let seed = 42;
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const syllables = ['ka', 'lo', 'mi', 'ne', 'pu', 'ra', 'si', 'to', 'vu', 'ze', 'bre', 'dan'];
const product = [
  'upload',
  'photo',
  'album',
  'payment',
  'login',
  'share',
  'print',
  'order',
  'thumbnail',
  'refund',
  'invoice',
  'export',
];
const words = [
  ...product,
  ...Array.from({ length: 3000 }, () => pick(syllables) + pick(syllables) + pick(syllables)),
];
const sentence = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');

const load0 = loadavg();
const dir = await mkdtemp(join(tmpdir(), 'intentlog-research-bench-'));
const app = await openIntentlog({ dataDir: join(dir, 'data') });
try {
  const t0 = performance.now();
  const { project_id, rows } = await seedMap(app, {
    stories: STORIES,
    criteria: 2,
    edges: 0,
    batch: BATCH,
    text: {
      title: (i) => `${sentence(3)} ${i}`,
      i_want: () => sentence(8),
      criterion: () => sentence(10),
      // a note on every story (the "10,000 notes")
      note: () => sentence(20),
    },
  });
  await storymap(app).reads.fresh();
  const seeded = performance.now() - t0;

  const issued = await app.tokens.issue(FOUNDER, 'bench', SYSTEM);
  await app.waitFor(issued.position);
  const listening = await serveOverHttp({
    app,
    selection: [],
    mounted: surfacesOf(modules),
    log: pino({ level: 'silent' }),
    host: '127.0.0.1',
    port: 0,
    stateful: false,
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${listening.url}/storymap`), {
      requestInit: { headers: { Authorization: `Bearer ${issued.token}` } },
    }),
  );
  const ask = async (query: string) => {
    const t = performance.now();
    const answer = await client.callTool({ name: 'research', arguments: { project_id, query } });
    const ms = performance.now() - t;
    const e = answer.structuredContent as { ok: boolean; result?: { total_matches: number } };
    if (!e.ok) throw new Error(`research: ${JSON.stringify(e)}`);
    return { ms, matches: e.result!.total_matches };
  };
  const first = await ask('upload photo');
  const times: number[] = [];
  for (let i = 0; i < QUESTIONS; i++) times.push((await ask(`${pick(product)} ${pick(words)}`)).ms);
  await storymap(app).addNote(
    { project_id, story_id: rows[0]!.id, note: 'a brand new zebraword' },
    FOUNDER,
  );
  const afterWrite = await ask('zebraword');
  await client.close();
  await listening.close();
  const load1 = loadavg();
  console.log(
    JSON.stringify({
      stories: STORIES,
      notes: STORIES,
      events: await app.log.head(),
      seed_s: fmt(seeded / 1000),
      first_question_ms: fmt(first.ms),
      p50_ms: fmt(median(times)),
      p99_ms: fmt(percentile(times, 99)),
      after_write_ms: fmt(afterWrite.ms),
      after_write_found: afterWrite.matches > 0,
      load_average: [load0, load1].map((l) => l.map((x) => x.toFixed(1)).join(' ')),
    }),
  );
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
