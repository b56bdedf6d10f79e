import type { Criterion, Effort, StoryPriority } from '../../events/storymap/index.js';
import { invalidArgument } from '../errors.js';
import { requireCapability, storyMapError, type Caller } from './access.js';
import { DEFAULT_ACTIVITY, type BatchEvents } from './batch.js';
import type { MapEvent, MapState } from './map-state.js';
import { requireMap, requireWritable } from './refs.js';
import { placeInRelease } from './releases.js';
import type { StoryEvent, StoryState } from './story-state.js';
import { unanswered, visionComplete } from './vision.js';

export type NewStory = {
  /** chosen by the service; a skipped row's id is never used */
  story_id: string;
  title: string;
  activity?: string;
  as_a?: string;
  i_want?: string;
  so_that?: string;
  priority?: StoryPriority;
  effort?: Effort;
  release_order?: number;
  criteria: Criterion[];
};

export type CreateStories = {
  stories: NewStory[];
  force: boolean;
  source: 'manual' | 'report';
  caller: Caller;
};

/** Refuses stories until the vision is complete, unless `force` (contract: constitution_required). */
export const requireVision = (vision: MapState['vision'], force: boolean): void => {
  if (force || visionComplete(vision)) return;
  const missing = unanswered(vision);
  throw storyMapError(
    'constitution_required',
    `constitution_required: answer the vision first (set_vision). Unanswered: ${missing.join(', ')}.`,
    { error: 'constitution_required', unanswered: missing },
  );
};

type Lanes = { names: Map<string, string>; count: number };

const laneFor = (map: MapState, lanes: Lanes, wanted: string | undefined, events: MapEvent[]) => {
  const name = wanted?.trim() || DEFAULT_ACTIVITY;
  const existing = lanes.names.get(name.toLowerCase());
  if (existing) return existing;
  lanes.names.set(name.toLowerCase(), name);
  const position = lanes.count++;
  const activity_id = `activity-${position + 1}`;
  events.push({
    type: 'storymap.activity_added',
    data: { project_id: map.project_id, activity_id, name, position },
  });
  return name;
};

const storyEvents = (
  map: MapState,
  row: NewStory,
  key: string,
  activity: string,
  command: CreateStories,
): StoryEvent[] => {
  const on = { project_id: map.project_id, story_id: row.story_id };
  const by = command.caller.actor_id;
  const created: StoryEvent = {
    type: 'story.created',
    data: {
      ...on,
      key,
      title: row.title.trim(),
      activity,
      as_a: row.as_a ?? null,
      i_want: row.i_want ?? null,
      so_that: row.so_that ?? null,
      priority: row.priority ?? 'should',
      effort: row.effort ?? 'M',
      release_order: row.release_order ?? 1,
      source: command.source,
      by,
    },
  };
  if (row.criteria.length === 0) return [created];
  return [created, { type: 'criteria.added', data: { ...on, criteria: row.criteria, by } }];
};

/**
 * create_stories over the map and one fresh stream per row. A title matching a live story
 * (ignoring case), or an earlier row, is skipped; releases are placed row by row, in sequence.
 */
export const decideCreateStories = (
  command: CreateStories,
  map: MapState,
  _fresh: readonly StoryState[],
): BatchEvents & { skipped: string[] } => {
  requireCapability(command.caller, 'edit');
  requireWritable(requireMap(map));
  requireVision(map.vision, command.force);
  const blank = command.stories.findIndex((s) => s.title.trim() === '');
  if (blank >= 0)
    throw invalidArgument(`stories[${blank}].title must be a non-empty string`, {
      field: `stories[${blank}].title`,
    });
  const titles = new Set(
    [...map.stories.values()].filter((s) => !s.cancelled).map((s) => s.title.toLowerCase()),
  );
  const lanes: Lanes = {
    names: new Map(map.activities.map((a) => [a.name.toLowerCase(), a.name])),
    count: map.activities.length,
  };
  const releases = new Set(map.releases.keys());
  const mapEvents: MapEvent[] = [];
  const skipped: string[] = [];
  let next = map.next_key;
  const stories = command.stories.map((row, i) => {
    const title = row.title.trim();
    if (titles.has(title.toLowerCase())) {
      skipped.push(title);
      return [];
    }
    titles.add(title.toLowerCase());
    const activity = laneFor(map, lanes, row.activity, mapEvents);
    mapEvents.push(
      ...placeInRelease(
        map.project_id,
        releases,
        row.release_order ?? 1,
        `stories[${i}].release_order`,
      ),
    );
    const key = `${map.key_prefix}-${next++}`;
    mapEvents.push({
      type: 'storymap.story_indexed',
      data: { project_id: map.project_id, story_id: row.story_id, key, title, cancelled: false },
    });
    return storyEvents(map, row, key, activity, command);
  });
  return { map: mapEvents, stories, skipped };
};
