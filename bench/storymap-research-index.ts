/**
 * The research index alone (no log, no read models): 10,000 story documents with criteria and
 * notes built by `storyDoc`, searched with research's own options. Separates the search's cost
 * from the seeding that bench/storymap-research.ts spends minutes on.
 * Run once: `npx tsx bench/storymap-research-index.ts` (noisy shared machine).
 */
import MiniSearch from 'minisearch';
import { SEARCH_OPTIONS, storyDoc, type ResearchDoc } from '../src/app/storymap-research-index.js';
import { initialBuild } from '../src/events/catalog/storymap-build-fold.js';
import type { StoryView } from '../src/projections/storymap-views.js';
import { fmt, median, percentile } from './stats.js';

const STORIES = 10_000;
let seed = 7;
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const syl = ['ka', 'lo', 'mi', 'ne', 'pu', 'ra', 'si', 'to', 'vu', 'ze', 'bre', 'dan'];
const product = ['upload', 'photo', 'album', 'payment', 'login', 'share', 'print', 'order'];
const words = [
  ...product,
  ...Array.from({ length: 3000 }, () => pick(syl) + pick(syl) + pick(syl)),
];
const sentence = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');

const view = (i: number): StoryView => ({
  id: `s${i}`,
  project_id: 'p',
  key: `PB-${i}`,
  title: sentence(4),
  status: 'todo',
  activity: 'A',
  user_story: { as_a: null, i_want: sentence(8), so_that: null },
  priority: 'should',
  effort: 'M',
  release: 1,
  sort_order: null,
  build_sequence: null,
  depends_on: [],
  version: 1,
  acceptance_criteria: [0, 1].map((c) => ({
    id: `c${c}`,
    text: sentence(10),
    priority: 'must',
    given: null,
    when: null,
    then: null,
    verification: null,
    last_result: null,
    test_count: 0,
    ci_regressed: false,
  })),
  notes: sentence(20),
  implementation_summary: null,
  implemented_files: [],
  implemented_at: null,
  cancelled_at: null,
  cancellation_reason: null,
  spec_changed_since_built: false,
  ci_regressed: false,
  tests_predate_code: false,
  created_at: '',
  updated_at: '',
  record: {
    created_by: 'x',
    marked_ready_by: null,
    marked_ready_at: null,
    built_by: null,
    built_at: null,
    approved_by: null,
    approved_at: null,
  },
  history: [],
  build: initialBuild(),
});

const t0 = performance.now();
const index = new MiniSearch<ResearchDoc>({
  fields: ['ref', 'title', 'body', 'criteria', 'notes', 'history'],
  storeFields: ['kind', 'ref'],
  searchOptions: SEARCH_OPTIONS,
});
index.addAll(Array.from({ length: STORIES }, (_, i) => storyDoc(view(i + 1))));
const built = performance.now() - t0;
const times: number[] = [];
for (let i = 0; i < 300; i++) {
  const t = performance.now();
  index.search(`${pick(product)} ${pick(words)}`);
  times.push(performance.now() - t);
}
console.log(
  JSON.stringify({
    stories: STORIES,
    build_ms: fmt(built),
    p50_ms: fmt(median(times)),
    p99_ms: fmt(percentile(times, 99)),
  }),
);
