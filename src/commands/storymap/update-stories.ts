import type { StoryChanges, StoryStatus } from '../../events/storymap/index.js';
import { invalidArgument, notFound } from '../errors.js';
import { requireCapability, storyMapError, type Caller } from './access.js';
import { findActivity, type BatchEvents } from './batch.js';
import { findCycle } from './graph.js';
import { mapDecider } from './map.js';
import type { MapEvent, MapState } from './map-state.js';
import { requireMap, requireWritable } from './refs.js';
import { placeInRelease } from './releases.js';
import type { StoryEvent, StoryState } from './story-state.js';

export type StoryRow = {
  story_id: string;
  expected_version?: number;
  status?: StoryStatus;
  changes: StoryChanges;
  build_sequence?: number | null;
  dependencies?: string[];
};

export type UpdateStories = { rows: StoryRow[]; caller: Caller };

/** Statuses a person sets (`intentlog founder`), never an agent's update_stories. */
export const HUMAN_ONLY: ReadonlySet<StoryStatus> = new Set(['ready_for_dev', 'approved']);

const checkRows = (command: UpdateStories, stories: readonly StoryState[]): void => {
  const seen = new Set<string>();
  command.rows.forEach((row, i) => {
    if (!stories[i]?.exists)
      throw notFound(`No story found matching "${row.story_id}"`, { story_id: row.story_id });
    if (seen.has(row.story_id))
      throw invalidArgument(`stories[${i}] names ${stories[i].key} a second time`, {
        story_id: row.story_id,
      });
    seen.add(row.story_id);
  });
  // every expected version is checked before anything is written: one stale row refuses all
  const stale = command.rows.flatMap((row, i) => {
    const s = stories[i]!;
    return row.expected_version === undefined || row.expected_version === s.version
      ? []
      : [
          {
            id: s.story_id,
            key: s.key,
            expected_version: row.expected_version,
            current_version: s.version,
          },
        ];
  });
  if (stale.length > 0)
    throw storyMapError(
      'VERSION_CONFLICT',
      `VERSION_CONFLICT: ${stale.map((s) => s.key).join(', ')} changed since the version you read; nothing was written.`,
      { stale_stories: stale },
    );
  const human = command.rows.findIndex((row) => row.status && HUMAN_ONLY.has(row.status));
  if (human >= 0)
    throw invalidArgument(
      `stories[${human}].status: ${command.rows[human]!.status} is set by a person (intentlog founder), not through update_stories.`,
      { field: `stories[${human}].status`, accepts: 'todo, in_progress, needs_rework or done' },
    );
};

/** The graph after the batch, refused naming the cycle (by keys) when it has one. */
const checkDependencies = (
  command: UpdateStories,
  map: MapState,
  stories: readonly StoryState[],
): number => {
  const graph = new Map(map.dependencies);
  let changed = 0;
  command.rows.forEach((row, i) => {
    if (!row.dependencies) return;
    for (const dep of row.dependencies) {
      if (!map.stories.has(dep))
        throw invalidArgument(`stories[${i}].dependencies: ${dep} is not a story of this project`, {
          field: `stories[${i}].dependencies`,
          story_id: dep,
        });
      if (dep === row.story_id)
        throw invalidArgument(
          `stories[${i}].dependencies: ${stories[i]!.key} cannot depend on itself`,
          {
            field: `stories[${i}].dependencies`,
          },
        );
    }
    graph.set(row.story_id, [...new Set(row.dependencies)]);
    changed++;
  });
  const roots = command.rows.filter((r) => r.dependencies).map((r) => r.story_id);
  const cycle = changed > 0 ? findCycle(graph, roots) : undefined;
  if (cycle) {
    const keys = cycle.map((id) => map.stories.get(id)?.key ?? id);
    throw invalidArgument(`Dependency cycle: ${keys.join(' → ')}. Nothing was written.`, {
      cycle: keys,
    });
  }
  return changed;
};

const checkPlacement = (command: UpdateStories, map: MapState, events: MapEvent[]): void => {
  const releases = new Set(map.releases.keys());
  command.rows.forEach((row, i) => {
    const { activity, release_order } = row.changes;
    if (activity !== undefined && !findActivity(map, activity))
      throw invalidArgument(`stories[${i}].activity: no activity named "${activity}".`, {
        field: `stories[${i}].activity`,
        valid_activities: map.activities.map((a) => a.name),
      });
    if (release_order !== undefined)
      events.push(
        ...placeInRelease(map.project_id, releases, release_order, `stories[${i}].release`),
      );
    if (row.build_sequence !== undefined && row.build_sequence !== null && row.build_sequence < 1)
      throw invalidArgument(`stories[${i}].build_sequence must be 1 or more, or null`, {
        field: `stories[${i}].build_sequence`,
      });
  });
};

const changedFields = (story: StoryState, changes: StoryChanges, map: MapState): StoryChanges => {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const next = field === 'activity' ? findActivity(map, value as string)!.name : value;
    if (JSON.stringify(story[field as keyof StoryState]) !== JSON.stringify(next))
      out[field] = next;
  }
  return out as StoryChanges;
};

const rowEvents = (row: StoryRow, story: StoryState, map: MapState, by: string) => {
  const on = { project_id: map.project_id, story_id: story.story_id };
  const storyEvents: StoryEvent[] = [];
  const mapEvents: MapEvent[] = [];
  const changes = changedFields(story, row.changes, map);
  if (Object.keys(changes).length > 0)
    storyEvents.push({ type: 'story.revised', data: { ...on, changes, by } });
  if (row.status && row.status !== story.status)
    storyEvents.push({
      type: 'story.status_changed',
      data: { ...on, from: story.status, to: row.status, by, via: 'mcp' },
    });
  if (changes.title !== undefined)
    mapEvents.push({
      type: 'storymap.story_indexed',
      data: { ...on, key: story.key, title: changes.title, cancelled: story.cancelled !== null },
    });
  const plan: { depends_on?: string[]; build_sequence?: number | null } = {};
  if (row.dependencies) {
    const depends_on = [...new Set(row.dependencies)];
    if (JSON.stringify(map.dependencies.get(story.story_id) ?? []) !== JSON.stringify(depends_on)) {
      mapEvents.push({ type: 'storymap.dependencies_set', data: { ...on, depends_on } });
      plan.depends_on = depends_on;
    }
  }
  if (
    row.build_sequence !== undefined &&
    (map.sequence.get(story.story_id) ?? null) !== row.build_sequence
  ) {
    mapEvents.push({
      type: 'storymap.build_sequence_set',
      data: { ...on, build_sequence: row.build_sequence },
    });
    plan.build_sequence = row.build_sequence;
  }
  // the story's own stream records it too, so its version moves (an expected_version sees it)
  if (Object.keys(plan).length > 0)
    storyEvents.push({ type: 'story.plan_changed', data: { ...on, ...plan, by } });
  return { storyEvents, mapEvents };
};

/**
 * update_stories: every row is checked (existence, expected versions, statuses, activities,
 * releases, the dependency graph) before any event is decided, so the batch is all or nothing.
 */
export const decideUpdateStories = (
  command: UpdateStories,
  map: MapState,
  stories: readonly StoryState[],
): BatchEvents & { dependencies_updated: number } => {
  requireCapability(command.caller, 'edit');
  requireWritable(requireMap(map));
  checkRows(command, stories);
  const mapEvents: MapEvent[] = [];
  checkPlacement(command, map, mapEvents);
  const dependencies_updated = checkDependencies(command, map, stories);
  const perStory = command.rows.map((row, i) => {
    const decided = rowEvents(row, stories[i]!, map, command.caller.actor_id);
    mapEvents.push(...decided.mapEvents);
    return decided.storyEvents;
  });
  return { map: mapEvents, stories: perStory, dependencies_updated };
};

export type SetSequence = { story_ref: string; build_sequence: number | null; caller: Caller };

/**
 * The founder's `sequence`: the map decides the place (mapDecider's SetBuildSequence, with its
 * refusals), and the story's stream records it too, so the story's version moves.
 */
export const decideSetSequence = (
  command: SetSequence,
  map: MapState,
  story: StoryState,
): BatchEvents => {
  const out = mapDecider.decide({ type: 'SetBuildSequence', data: command }, map);
  const decided = Array.isArray(out) ? out : [out];
  const set = decided.find((e) => e.type === 'storymap.build_sequence_set');
  const planned: StoryEvent[] =
    set?.type === 'storymap.build_sequence_set'
      ? [
          {
            type: 'story.plan_changed',
            data: {
              project_id: map.project_id,
              story_id: story.story_id,
              build_sequence: set.data.build_sequence,
              by: command.caller.actor_id,
            },
          },
        ]
      : [];
  return { map: decided, stories: [planned] };
};
