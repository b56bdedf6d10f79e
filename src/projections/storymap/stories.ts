import { own } from '../../events/own.js';
import {
  mapEvents,
  storyBuildEvents,
  storyEvents,
  type Criterion,
  type StoryChanges,
} from '../../events/storymap/index.js';
import { defineProjector, type LogEventOf, type ModelTx } from '../projector.js';
import { evidenceOfFigures } from './evidence.js';
import { appendHistory, foldBuildItems } from './story-build-items.js';
import { buildHead, type StoryHead } from './story-head.js';
import { STORYMAP_STORIES, StoryMapKeys } from './story-reads.js';
import { flag, foldMap, newMap } from './map-view.js';
import type { CriterionView, MapView } from './views.js';

export { STORYMAP_STORIES, StoryMapKeys, storyMapModel } from './story-reads.js';

const events = [...mapEvents, ...storyEvents, ...storyBuildEvents] as const;
type Folded = LogEventOf<(typeof events)[number]>;
type Of<T extends Folded['type']> = Extract<Folded, { type: T }>;

const criterionView = ({ criterion_id, ...c }: Criterion, tests = 0): CriterionView => ({
  id: criterion_id,
  ...c,
  last_result: null,
  test_count: tests,
  ci_regressed: false,
});

const newStory = ({ data: d, created_at }: Of<'story.created'>, version: number): StoryHead => ({
  id: d.story_id,
  project_id: d.project_id,
  key: d.key,
  title: d.title,
  status: 'todo',
  activity: d.activity,
  user_story: { as_a: d.as_a, i_want: d.i_want, so_that: d.so_that },
  priority: d.priority,
  effort: d.effort,
  release: d.release_order,
  sort_order: null,
  build_sequence: null,
  depends_on: [],
  version,
  acceptance_criteria: [],
  notes: null,
  implementation_summary: null,
  implemented_files: [],
  implemented_at: null,
  cancelled_at: null,
  cancellation_reason: null,
  spec_changed_since_built: false,
  ci_regressed: false,
  tests_predate_code: false,
  created_at,
  updated_at: created_at,
  record: {
    created_by: d.by,
    marked_ready_by: null,
    marked_ready_at: null,
    built_by: null,
    built_at: null,
    approved_by: null,
    approved_at: null,
  },
  build: buildHead(),
  counts: { tests: 0, feedback: 0, blockers: 0, handoffs: 0, history: 0 },
  figures: {},
});

const built = (v: StoryHead) => v.status === 'done' || v.status === 'approved';
/** A spec change on a built story: its criteria or title moved after it was built. */
const specMoved = (v: StoryHead): StoryHead => ({
  ...v,
  spec_changed_since_built: built(v) || v.spec_changed_since_built,
});

const revise = (
  v: StoryHead,
  { as_a, i_want, so_that, release_order, ...c }: StoryChanges,
  at: string,
): StoryHead => {
  const user_story = {
    as_a: as_a ?? v.user_story.as_a,
    i_want: i_want ?? v.user_story.i_want,
    so_that: so_that ?? v.user_story.so_that,
  };
  const fields = Object.fromEntries(Object.entries(c).filter(([, x]) => x !== undefined));
  const next = { ...v, ...fields, user_story, release: release_order ?? v.release };
  if (c.implementation_summary !== undefined || c.implemented_files !== undefined)
    next.implemented_at = at;
  return c.title !== undefined ? specMoved(next) : next;
};

const statusChanged = (
  v: StoryHead,
  { data: d, created_at: at }: Of<'story.status_changed'>,
): StoryHead => {
  const record = { ...v.record };
  if (d.to === 'ready_for_dev')
    Object.assign(record, { marked_ready_by: d.by, marked_ready_at: at });
  if (d.to === 'done') Object.assign(record, { built_by: d.by, built_at: at });
  if (d.to === 'approved') Object.assign(record, { approved_by: d.by, approved_at: at });
  const spec_changed_since_built = d.to === 'done' ? false : v.spec_changed_since_built;
  return { ...v, status: d.to, record, spec_changed_since_built };
};

const foldStory = (v: StoryHead, e: Exclude<Folded, Of<'story.created'>>): StoryHead => {
  switch (e.type) {
    case 'story.revised':
      return revise(v, e.data.changes, e.created_at);
    case 'story.status_changed':
      return statusChanged(v, e);
    case 'story.cancelled':
      return { ...v, cancelled_at: e.created_at, cancellation_reason: e.data.reason };
    case 'story.uncancelled':
      return { ...v, cancelled_at: null, cancellation_reason: null, status: e.data.status };
    case 'story.note_added':
      return { ...v, notes: v.notes ? `${v.notes}\n\n${e.data.note}` : e.data.note };
    case 'criteria.added':
      return specMoved({
        ...v,
        acceptance_criteria: [
          ...v.acceptance_criteria,
          ...e.data.criteria.map((c) => criterionView(c)),
        ],
      });
    case 'criterion.updated': {
      const { criterion_id, text, priority } = e.data;
      const acceptance_criteria = v.acceptance_criteria.map((c) =>
        c.id !== criterion_id
          ? c
          : { ...c, ...(text !== undefined ? { text } : {}), ...(priority ? { priority } : {}) },
      );
      return specMoved({ ...v, acceptance_criteria });
    }
    case 'criteria.replaced':
      return specMoved({ ...v, acceptance_criteria: e.data.criteria.map((c) => criterionView(c)) });
    case 'storymap.story_indexed':
      return { ...v, title: e.data.title };
    case 'storymap.dependencies_set':
      return { ...v, depends_on: e.data.depends_on };
    case 'storymap.build_sequence_set':
      return { ...v, build_sequence: e.data.build_sequence };
    case 'story.completed':
      // the time it was decided at (the app's clock), as results' times are: they are compared
      return {
        ...v,
        implementation_summary: e.data.summary,
        implemented_files: e.data.implemented_files,
        implemented_at: e.data.at,
      };
    default:
      return v;
  }
};

/**
 * Each criterion's latest result, how many tests prove it and what CI says, from the head's
 * figures (story-head.ts): O(criteria), whatever the story's history.
 */
const withEvidence = (v: StoryHead): StoryHead => {
  const figures = (id: string) => own(v.figures, id) ?? NO_FIGURES;
  const evidence = v.acceptance_criteria.map((c) =>
    evidenceOfFigures(v, own(v.build.results, c.id), figures(c.id)),
  );
  return {
    ...v,
    acceptance_criteria: v.acceptance_criteria.map((c, i) => ({
      ...c,
      last_result: own(v.build.results, c.id) ?? null,
      test_count: figures(c.id).tests,
      ci_regressed: evidence[i]!.ci_regressed,
    })),
    ci_regressed: evidence.some((e) => e.ci_regressed),
    tests_predate_code: evidence.some((e) => e.tests_predate_code),
  };
};
const NO_FIGURES = { tests: 0, failing: 0, ci_pass_at: null, ci_pass_holders: 0 };

const isMapEvent = (e: Folded): e is Extract<Folded, { type: `storymap.${string}` }> =>
  e.type.startsWith('storymap.');

const storyIdOf = (e: Folded): string | undefined =>
  e.type === 'storymap.decision_logged' || !('story_id' in e.data) ? undefined : e.data.story_id;

/**
 * One event into its story's head and items: one new head per event, built by `foldStory`,
 * the building record's fold (story-build-items.ts) and `withEvidence`, finished in place
 * before it is stored. A stored head is never changed.
 */
const applyToStory = async (e: Folded, storyId: string, tx: ModelTx) => {
  const key = StoryMapKeys.story(e.data.project_id, storyId);
  if (e.type === 'story.created') {
    tx.put(key, newStory(e, e.stream_version));
    return undefined;
  }
  const head = await tx.get<StoryHead>(key);
  if (!head) return undefined;
  const folded = foldStory(head, e);
  // a map event (the story's index entry, its dependencies) leaves the version and the record
  if (isMapEvent(e)) {
    tx.put(key, folded);
    return folded;
  }
  const next: StoryHead = { ...folded };
  if (e.type === 'story.status_changed') {
    const { from, to, by, via } = e.data;
    appendHistory(next, { from, to, by, via, at: e.created_at }, tx);
  }
  await foldBuildItems(next, e, tx);
  const done = withEvidence(next);
  done.version = e.stream_version;
  done.updated_at = e.created_at;
  tx.put(key, done);
  return done;
};

/**
 * The map view and one story per head and items (story-head.ts). Pure folds of the log, so a rebuild equals the model
 * kept live. The map's last_activity_at moves with every event of the project's map: it is
 * kept under a key of its own (`activity/<project>`, read back into the view by
 * `storyMapModel`), so a story's event writes a time, not the whole map again (1.3 KB of a
 * 3.8 KB write per story event on the product-shaped log, bench/RESULTS.md session 15).
 */
export const storyMapStoriesProjector = defineProjector({
  name: STORYMAP_STORIES,
  // 4: the map's last activity under a key of its own; 5: a story as a head and its items
  version: 5,
  events,
  async apply(e, tx) {
    const storyId = storyIdOf(e);
    const story = storyId === undefined ? undefined : await applyToStory(e, storyId, tx);
    const p = e.data.project_id;
    const key = StoryMapKeys.map(p);
    if (e.type === 'storymap.created') return tx.put(key, newMap(e));
    const map = await tx.get<MapView>(key);
    if (!map) return;
    const folded = flag(isMapEvent(e) ? foldMap(map, e) : map, story);
    if (folded !== map) tx.put(key, folded);
    tx.put(StoryMapKeys.activity(p), e.created_at);
  },
});
