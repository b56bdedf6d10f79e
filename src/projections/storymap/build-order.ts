import {
  BlockerCleared,
  BlockerRaised,
  CriteriaReported,
  FounderNeeded,
  HandoffCleared,
  mapEvents,
  PlanSaved,
  storyEvents,
  type StoryChanges,
  type StoryEvent,
} from '../../events/storymap/index.js';
import { defineProjector, modelKey, modelKeyPrefix, type LogEventOf } from '../projector.js';
import { readsOf } from '../read-model.js';
import type { OrderRow } from './order.js';

export const STORYMAP_BUILD_ORDER = 'storymap.build-order';

const events = [
  ...mapEvents,
  ...storyEvents,
  CriteriaReported,
  PlanSaved,
  BlockerRaised,
  BlockerCleared,
  FounderNeeded,
  HandoffCleared,
] as const;
type Folded = LogEventOf<(typeof events)[number]>;
type StoryFolded = Extract<Folded, { type: StoryEvent['type'] }>;

export const rowKey = (projectId: string, storyId: string) => modelKey('row', projectId, storyId);
export const rowPrefix = (projectId: string) => modelKeyPrefix('row', projectId);

/** A story's row before any of its events: what the fold starts from. */
export const emptyRow = (id: string): OrderRow => ({
  id,
  key: '',
  number: 0,
  title: '',
  status: 'todo',
  activity: '',
  release: 1,
  priority: 'should',
  effort: 'M',
  sort_order: null,
  build_sequence: null,
  depends_on: [],
  criteria_count: 0,
  must_ids: [],
  version: 0,
  spec_changed_since_built: false,
  passing_ids: [],
  has_plan: false,
  open_work: [],
  cancelled_at: null,
  cancellation_reason: null,
});

const keyNumber = (key: string) => Number(key.slice(key.lastIndexOf('-') + 1));

/**
 * A row as stored: its fields by position. With self-describing msgpack maps the field names
 * were half of every row's bytes, and a rebuild writes a row for nearly every event it folds:
 * positions halve what is encoded, written and read back (list_stories, the build order).
 */
export type StoredRow = [
  id: string,
  key: string,
  title: string,
  status: OrderRow['status'],
  activity: string,
  release: number,
  priority: OrderRow['priority'],
  effort: OrderRow['effort'],
  sort_order: number | null,
  build_sequence: number | null,
  depends_on: string[],
  criteria_count: number,
  must_ids: string[],
  version: number,
  spec_changed_since_built: boolean,
  cancelled_at: string | null,
  cancellation_reason: string | null,
  passing_ids: string[],
  has_plan: boolean,
  open_work: string[],
];

export const storedRow = (r: OrderRow): StoredRow => [
  r.id,
  r.key,
  r.title,
  r.status,
  r.activity,
  r.release,
  r.priority,
  r.effort,
  r.sort_order,
  r.build_sequence,
  r.depends_on,
  r.criteria_count,
  r.must_ids,
  r.version,
  r.spec_changed_since_built,
  r.cancelled_at,
  r.cancellation_reason,
  r.passing_ids,
  r.has_plan,
  r.open_work,
];

/** Where a stored row keeps its version (found from `storedRow`, so the two never disagree). */
const VERSION = storedRow({ ...emptyRow(''), version: -1 }).indexOf(-1);

/** A fresh row object from its stored form (the fold changes it in place, never the stored one). */
export const orderRow = (s: StoredRow): OrderRow => ({
  id: s[0],
  key: s[1],
  number: keyNumber(s[1]),
  title: s[2],
  status: s[3],
  activity: s[4],
  release: s[5],
  priority: s[6],
  effort: s[7],
  sort_order: s[8],
  build_sequence: s[9],
  depends_on: s[10],
  criteria_count: s[11],
  must_ids: s[12],
  version: s[13],
  spec_changed_since_built: s[14],
  cancelled_at: s[15],
  cancellation_reason: s[16],
  passing_ids: s[17],
  has_plan: s[18],
  open_work: s[19],
});

const musts = (criteria: readonly { criterion_id: string; priority: string }[]) =>
  criteria.filter((c) => c.priority === 'must').map((c) => c.criterion_id);

const built = (row: OrderRow) => row.status === 'done' || row.status === 'approved';
/** A spec change on a built story: its criteria or title moved after it was built. */
const specMoved = (row: OrderRow): void => {
  row.spec_changed_since_built = built(row) || row.spec_changed_since_built;
};

const revise = (row: OrderRow, changes: StoryChanges): void => {
  const { title, activity, priority, effort, sort_order, release_order } = changes;
  if (title !== undefined) row.title = title;
  if (activity !== undefined) row.activity = activity;
  if (priority !== undefined) row.priority = priority;
  if (effort !== undefined) row.effort = effort;
  if (sort_order !== undefined) row.sort_order = sort_order;
  if (release_order !== undefined) row.release = release_order;
};

/**
 * One story event into its row, in place: `row` is the fold's own copy. Arrays are replaced,
 * never changed, since the stored row (cached by the engine) may share them.
 */
const fromStory = (row: OrderRow, event: StoryFolded): void => {
  switch (event.type) {
    case 'story.created': {
      const { key, title, activity, priority, effort, release_order } = event.data;
      row.key = key;
      row.number = keyNumber(key);
      row.title = title;
      row.activity = activity;
      row.priority = priority;
      row.effort = effort;
      row.release = release_order;
      return;
    }
    case 'story.revised':
      return revise(row, event.data.changes);
    case 'story.status_changed':
      row.status = event.data.to;
      if (event.data.to === 'done') row.spec_changed_since_built = false;
      return;
    case 'story.cancelled':
      row.cancelled_at = event.created_at;
      row.cancellation_reason = event.data.reason;
      return;
    case 'story.uncancelled':
      row.cancelled_at = null;
      row.cancellation_reason = null;
      row.status = event.data.status;
      return;
    case 'criteria.added':
      row.criteria_count += event.data.criteria.length;
      row.must_ids = [...row.must_ids, ...musts(event.data.criteria)];
      return specMoved(row);
    case 'criteria.replaced':
      row.criteria_count = event.data.criteria.length;
      row.must_ids = musts(event.data.criteria);
      row.passing_ids = row.passing_ids.filter((id) => !event.data.removed.includes(id));
      return;
    case 'criteria.reported': {
      const reported = new Set(event.data.results.map((r) => r.criterion_id));
      const passing = event.data.results.filter((r) => r.status === 'pass');
      const kept = row.passing_ids.filter((id) => !reported.has(id));
      row.passing_ids = [...kept, ...passing.map((r) => r.criterion_id)];
      return;
    }
    case 'story.plan_saved':
      row.has_plan = true;
      return;
    case 'story.blocker_raised':
      row.open_work = [...row.open_work, event.data.blocker_id];
      return;
    case 'story.founder_needed':
      row.open_work = [...row.open_work, event.data.handoff_id];
      return;
    case 'story.blocker_cleared':
      row.open_work = row.open_work.filter((id) => id !== event.data.blocker_id);
      return;
    case 'story.handoff_cleared':
      row.open_work = row.open_work.filter((id) => id !== event.data.handoff_id);
      return;
    case 'criterion.updated': {
      const { criterion_id, priority } = event.data;
      if (priority !== undefined) {
        const others = row.must_ids.filter((id) => id !== criterion_id);
        row.must_ids = priority === 'must' ? [...others, criterion_id] : others;
      }
      return specMoved(row);
    }
    case 'story.note_added':
    case 'story.plan_changed': // the map's own events carry the values
      return;
  }
};

const isStoryEvent = (event: Folded): event is StoryFolded => !event.type.startsWith('storymap.');

/** One event folded into its story's row, in place; a story event also moves its `version`. */
const foldInto = (row: OrderRow, event: Folded): void => {
  if (isStoryEvent(event)) {
    fromStory(row, event);
    row.version = event.stream_version;
    return;
  }
  switch (event.type) {
    case 'storymap.story_indexed':
      row.key = event.data.key;
      row.number = keyNumber(event.data.key);
      row.title = event.data.title;
      return;
    case 'storymap.dependencies_set':
      row.depends_on = event.data.depends_on;
      return;
    case 'storymap.build_sequence_set':
      row.build_sequence = event.data.build_sequence;
      return;
    default:
      return;
  }
};

const storyIdOf = (e: Folded): string | undefined =>
  e.type === 'storymap.decision_logged' || !('story_id' in e.data) ? undefined : e.data.story_id;

/**
 * One compact row per story: what the build order, list_stories, the session context and the
 * release checks read, without the criteria's text. The order itself is computed from the rows
 * at query time (storymap/order.ts): a topological sort of 2,000 rows is a millisecond.
 */
export const storyMapBuildOrderProjector = defineProjector({
  name: STORYMAP_BUILD_ORDER,
  // 5: rows stored by position (StoredRow), with the building loop's passing_ids, has_plan and
  // open_work
  version: 5,
  events,
  async apply(e, tx) {
    const storyId = storyIdOf(e);
    if (storyId === undefined) return;
    const key = rowKey(e.data.project_id, storyId);
    const stored = await tx.get<StoredRow>(key);
    if (stored && (e.type === 'story.note_added' || e.type === 'story.plan_changed')) {
      // most of a long-lived map's events: only the row's version moves
      const next: StoredRow = [...stored];
      next[VERSION] = e.stream_version;
      return tx.put(key, next);
    }
    // decoded into a fresh object, folded in place, stored by position: one object per event
    const row = stored ? orderRow(stored) : emptyRow(storyId);
    foldInto(row, e);
    tx.put(key, storedRow(row));
  },
});

/** The build order's reads: one story's row, a map's rows (decoded with `orderRow`). */
export const buildOrderModel = {
  row: readsOf<StoredRow>(STORYMAP_BUILD_ORDER).value(rowKey),
  rows: readsOf<StoredRow>(STORYMAP_BUILD_ORDER).range(rowPrefix),
};
