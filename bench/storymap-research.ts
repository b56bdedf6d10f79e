/**
 * research over a story map of 10,000 stories (2 criteria each) and 10,000 notes, LevelDB data
 * dir, called in process through the tool's own function (no transport): the first question
 * (builds the index), p50/p99 of 200 questions on a stable map, and a question right after a
 * write (the index catches up by cursor). Target: p50 under 30 ms.
 * Run once: `npx tsx bench/storymap-research.ts` (noisy shared machine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storymap } from '../src/app/storymap.js';
import { research } from '../src/app/storymap-research.js';
import type { Principal } from '../src/commands/principal.js';
import { openIntentlog } from '../src/modules/index.js';
import { fmt, median, percentile } from './stats.js';

const STORIES = Number(process.env.STORIES ?? 10_000);
const BATCH = 200;
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

const dir = await mkdtemp(join(tmpdir(), 'intentlog-research-bench-'));
const app = await openIntentlog({ dataDir: join(dir, 'data') });
const owner: Principal = { kind: 'actor', actor_id: 'founder' };
const sm = storymap(app);
try {
  const t0 = performance.now();
  const { project_id } = await sm.createProject(
    { name: 'Research Bench', idea: 'big', client: null },
    owner,
  );
  await sm.setVision(
    { project_id, answers: { users: 'u', problem: 'p', switch: 's', first: 'f', proof: 'p' } },
    owner,
  );
  for (let start = 0; start < STORIES; start += BATCH) {
    const made = await sm.createStories(
      {
        project_id,
        stories: Array.from({ length: BATCH }, (_, i) => ({
          title: `${sentence(3)} ${start + i}`,
          activity: `Activity ${(start + i) % 12}`,
          i_want: sentence(8),
          acceptance_criteria: [sentence(10), { text: sentence(10), priority: 'must' }],
        })),
      },
      owner,
    );
    // a note on every story (the "10,000 notes")
    await sm.updateStories(
      { project_id, stories: made.result.map((s) => ({ id: s.story_id, notes: sentence(20) })) },
      owner,
    );
  }
  await sm.reads.fresh();
  const seeded = performance.now() - t0;
  const ask = async (q: string) => {
    const t = performance.now();
    await research(app, project_id, q, owner);
    return performance.now() - t;
  };
  const first = await ask('upload photo');
  const times: number[] = [];
  for (let i = 0; i < QUESTIONS; i++) times.push(await ask(`${pick(product)} ${pick(words)}`));
  const [one] = (await sm.reads.rows(project_id)).slice(0, 1);
  await sm.addNote({ project_id, story_id: one!.id, note: 'a brand new zebraword' }, owner);
  const afterWrite = await ask('zebraword');
  console.log(
    JSON.stringify({
      stories: STORIES,
      notes: STORIES,
      seed_s: fmt(seeded / 1000),
      first_question_ms: fmt(first),
      p50_ms: fmt(median(times)),
      p99_ms: fmt(percentile(times, 99)),
      after_write_ms: fmt(afterWrite),
    }),
  );
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
