import {
  CriteriaReported,
  mapEvents,
  PlanSaved,
  storyEvents,
  type StoryChanges,
  type StoryEvent,
} from '../events/catalog/storymap.js';
import { defineProjector, modelKey, modelKeyPrefix, type LogEventOf } from './projector.js';
import type { OrderRow } from './storymap-order.js';

export const STORYMAP_BUILD_ORDER = 'storymap.build-order';

const events = [...mapEvents, ...storyEvents, CriteriaReported, PlanSaved] as const;
type Folded = LogEventOf<(typeof events)[number]>;
type StoryFolded = Extract<Folded, { type: StoryEvent['type'] }>;

export const rowKey = (projectId: string, storyId: string) => modelKey('row', projectId, storyId);
export const rowPrefix = (projectId: string) => modelKeyPrefix('row', projectId);

const emptyRow = (id: string): OrderRow => ({
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
  cancelled_at: null,
  cancellation_reason: null,
});

const keyNumber = (key: string) => Number(key.slice(key.lastIndexOf('-') + 1));

const musts = (criteria: readonly { criterion_id: string; priority: string }[]) =>
  criteria.filter((c) => c.priority === 'must').map((c) => c.criterion_id);

const built = (row: OrderRow) => row.status === 'done' || row.status === 'approved';
/** A spec change on a built story: its criteria or title moved after it was built. */
const specMoved = (row: OrderRow): OrderRow => ({
  ...row,
  spec_changed_since_built: built(row) || row.spec_changed_since_built,
});

const revised = (row: OrderRow, changes: StoryChanges): OrderRow => {
  const { title, activity, priority, effort, sort_order, release_order: release } = changes;
  const picked = { title, activity, priority, effort, sort_order, release };
  return {
    ...row,
    ...Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)),
  };
};

const fromStory = (row: OrderRow, event: StoryFolded): OrderRow => {
  switch (event.type) {
    case 'story.created': {
      const { key, title, activity, priority, effort, release_order } = event.data;
      return {
        ...row,
        key,
        number: keyNumber(key),
        title,
        activity,
        priority,
        effort,
        release: release_order,
      };
    }
    case 'story.revised':
      return revised(row, event.data.changes);
    case 'story.status_changed': {
      const { to } = event.data;
      return {
        ...row,
        status: to,
        spec_changed_since_built: to === 'done' ? false : row.spec_changed_since_built,
      };
    }
    case 'story.cancelled':
      return { ...row, cancelled_at: event.created_at, cancellation_reason: event.data.reason };
    case 'story.uncancelled':
      return { ...row, cancelled_at: null, cancellation_reason: null, status: event.data.status };
    case 'criteria.added':
      return specMoved({
        ...row,
        criteria_count: row.criteria_count + event.data.criteria.length,
        must_ids: [...row.must_ids, ...musts(event.data.criteria)],
      });
    case 'criteria.replaced':
      return {
        ...row,
        criteria_count: event.data.criteria.length,
        must_ids: musts(event.data.criteria),
        passing_ids: row.passing_ids.filter((id) => !event.data.removed.includes(id)),
      };
    case 'criteria.reported': {
      const reported = new Set(event.data.results.map((r) => r.criterion_id));
      const passing = event.data.results.filter((r) => r.status === 'pass');
      const kept = row.passing_ids.filter((id) => !reported.has(id));
      return { ...row, passing_ids: [...kept, ...passing.map((r) => r.criterion_id)] };
    }
    case 'story.plan_saved':
      return { ...row, has_plan: true };
    case 'criterion.updated': {
      const { criterion_id, priority } = event.data;
      if (priority === undefined) return specMoved(row);
      const others = row.must_ids.filter((id) => id !== criterion_id);
      return specMoved({
        ...row,
        must_ids: priority === 'must' ? [...others, criterion_id] : others,
      });
    }
    case 'story.note_added':
      return row;
  }
};

const isStoryEvent = (event: Folded): event is StoryFolded => !event.type.startsWith('storymap.');

/** One event folded into its story's row; a story event also moves the row's `version`. */
export const foldRow = (row: OrderRow | undefined, event: Folded, storyId: string): OrderRow => {
  const current = row ?? emptyRow(storyId);
  if (isStoryEvent(event)) return { ...fromStory(current, event), version: event.stream_version };
  switch (event.type) {
    case 'storymap.story_indexed':
      return {
        ...current,
        key: event.data.key,
        number: keyNumber(event.data.key),
        title: event.data.title,
      };
    case 'storymap.dependencies_set':
      return { ...current, depends_on: event.data.depends_on };
    case 'storymap.build_sequence_set':
      return { ...current, build_sequence: event.data.build_sequence };
    default:
      return current;
  }
};

const storyIdOf = (e: Folded): string | undefined =>
  e.type === 'storymap.decision_logged' || !('story_id' in e.data) ? undefined : e.data.story_id;

/**
 * One compact row per story: what the build order, list_stories, the session context and the
 * release checks read, without the criteria's text. The order itself is computed from the rows
 * at query time (storymap-order.ts): a topological sort of 2,000 rows is a millisecond.
 */
export const storyMapBuildOrderProjector = defineProjector({
  name: STORYMAP_BUILD_ORDER,
  version: 3,
  events,
  async apply(e, tx) {
    const storyId = storyIdOf(e);
    if (storyId === undefined) return;
    const key = rowKey(e.data.project_id, storyId);
    tx.put(key, foldRow(await tx.get<OrderRow>(key), e, storyId));
  },
});
