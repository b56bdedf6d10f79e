/**
 * What the local story-map server adds to a call: the same tools called through
 * `storymap-local` (link file read, cancelled-story check, delegation) and through the hosted
 * `storymap` surface, in-memory MCP clients over one LevelDB data dir with 200 stories.
 * Run once: `npx tsx bench/storymap-local.ts` (noisy shared machine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { storymap } from '../src/app/storymap/index.js';
import { writeLink } from '../src/app/storymap/link.js';
import { SYSTEM } from '../src/commands/principal.js';
import { serverFactory } from '../src/mcp/server.js';
import { resolveSurfaces } from '../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../src/modules/index.js';
import { fmt, median, percentile } from './stats.js';

const SAMPLES = 300;
const dir = await mkdtemp(join(tmpdir(), 'intentlog-local-bench-'));
const app = await openIntentlog({ dataDir: join(dir, 'data') });

const client = async (surface: string) => {
  const factory = serverFactory({
    app,
    selection: resolveSurfaces(surfacesOf(modules), surface),
    transport: 'stdio',
    principalOf: () => SYSTEM,
    log: pino({ level: 'silent' }),
  });
  const [server, side] = InMemoryTransport.createLinkedPair();
  await factory().connect(server);
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(side);
  return c;
};

const sm = storymap(app);
const { project_id } = await sm.createProject({ name: 'Bench', idea: 'b', client: null }, SYSTEM);
await sm.setVision(
  { project_id, answers: { users: 'u', problem: 'p', switch: 's', first: 'f', proof: 'p' } },
  SYSTEM,
);
const stories = Array.from({ length: 200 }, (_, i) => ({
  title: `Story ${i + 1}`,
  activity: `Activity ${i % 8}`,
  acceptance_criteria: [{ text: `Given ${i}, then done`, priority: 'must' }],
}));
const made = await sm.createStories({ project_id, stories }, SYSTEM);
const storyKey = made.result[6]!.key;
const root = join(dir, 'work');
await writeLink(root, { project_id });
process.env.INTENTLOG_ROOT = root;

const hosted = await client('storymap');
const local = await client('storymap-local:core');

const timed = async (c: Client, name: string, args: Record<string, unknown>) => {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES + 20; i++) {
    const started = performance.now();
    const answer = await c.callTool({ name, arguments: args });
    if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.structuredContent)}`);
    if (i >= 20) ms.push(performance.now() - started);
  }
  return ms;
};

const rows: string[] = [];
const compare = async (what: string, name: string, args: Record<string, unknown>) => {
  const h = await timed(hosted, name, { project_id, ...args });
  const l = await timed(local, name, args);
  rows.push(
    `| ${what} | ${fmt(median(h))} / ${fmt(percentile(h, 99))} | ${fmt(median(l))} / ${fmt(percentile(l, 99))} | +${fmt(median(l) - median(h))} |`,
  );
};
await compare('get_status (read)', 'get_status', {});
await compare('add_note (durable write, names a story)', 'add_note', {
  story_id: storyKey,
  note: 'n',
});

console.log(`${SAMPLES} sequential calls each, after 20 warm-up calls; ms p50 / p99\n`);
console.log('| call | hosted storymap | storymap-local | local adds (p50) |');
console.log('| --- | --- | --- | --- |');
for (const row of rows) console.log(row);
await hosted.close();
await local.close();
await app.close();
await rm(dir, { recursive: true, force: true });
