import { Snapshots } from '../snapshots.js';
import type { DecisionCategory, MapEvent, VisionKey } from '../../events/storymap/index.js';
import { streamName } from '../../events/index.js';
import { PersistentMap } from '../persistent-map.js';

export type { MapEvent };

export type IndexedStory = { story_id: string; key: string; title: string; cancelled: boolean };
export type MapDecision = {
  decision_id: string;
  title: string;
  description: string;
  category: DecisionCategory;
  retracted: boolean;
};

/**
 * A project's story map as its own stream decides it. `evolve` is pure: an event copies only
 * the collection it changes (the store's fold cache hands a folded state to every later load,
 * so a command folds only the events appended since).
 */
export type MapState = {
  exists: boolean;
  project_id: string;
  map_id: string;
  name: string;
  idea: string;
  key_prefix: string;
  /** the number the next story key gets */
  next_key: number;
  archived: boolean;
  vision: Partial<Record<VisionKey, string>>;
  /** activity lanes, in order */
  activities: { activity_id: string; name: string }[];
  releases: ReadonlyMap<number, string>;
  stories: ReadonlyMap<string, IndexedStory>;
  keys: ReadonlyMap<string, string>;
  dependencies: ReadonlyMap<string, readonly string[]>;
  sequence: ReadonlyMap<string, number>;
  decisions: ReadonlyMap<string, MapDecision>;
};

export const GO_LIVE = 1000;

export const initialMap = (): MapState => ({
  exists: false,
  project_id: '',
  map_id: '',
  name: '',
  idea: '',
  key_prefix: '',
  next_key: 1,
  archived: false,
  vision: {},
  activities: [],
  releases: PersistentMap.empty(),
  stories: PersistentMap.empty(),
  keys: PersistentMap.empty(),
  dependencies: PersistentMap.empty(),
  sequence: PersistentMap.empty(),
  decisions: PersistentMap.empty(),
});

export const mapStream = (projectId: string): string =>
  streamName({ aggregateType: 'storymap', projectId, aggregateId: projectId });

export const storyStream = (projectId: string, storyId: string): string =>
  streamName({ aggregateType: 'story', projectId, aggregateId: storyId });

/**
 * `map` with `key` set (or deleted, for undefined): the state it came from stays. O(1) for the
 * state's own maps (persistent-map.ts); a copy for any other.
 */
const withEntry = <K, V>(
  map: ReadonlyMap<K, V>,
  key: K,
  value: V | undefined,
): ReadonlyMap<K, V> => {
  if (map instanceof PersistentMap) return (map as PersistentMap<K, V>).with(key, value);
  const next = new Map(map);
  if (value === undefined) next.delete(key);
  else next.set(key, value);
  return next;
};

const indexStory = (state: MapState, story: IndexedStory): MapState => {
  const number = Number(story.key.slice(story.key.lastIndexOf('-') + 1)) + 1;
  return {
    ...state,
    stories: withEntry(state.stories, story.story_id, story),
    keys: withEntry(state.keys, story.key, story.story_id),
    next_key: Math.max(state.next_key, number),
  };
};

const evolveDecision = (state: MapState, event: MapEvent): MapState => {
  switch (event.type) {
    case 'storymap.decision_logged': {
      const { decision_id, title, description, category } = event.data;
      const decision = { decision_id, title, description, category, retracted: false };
      return { ...state, decisions: withEntry(state.decisions, decision_id, decision) };
    }
    case 'storymap.decision_amended': {
      const { decision_id, by: _by, project_id: _p, ...changes } = event.data;
      const current = state.decisions.get(decision_id);
      if (!current) return state;
      const amended = { ...current, ...changes };
      return { ...state, decisions: withEntry(state.decisions, decision_id, amended) };
    }
    case 'storymap.decision_retracted': {
      const current = state.decisions.get(event.data.decision_id);
      if (!current) return state;
      const retracted = { ...current, retracted: true };
      return { ...state, decisions: withEntry(state.decisions, current.decision_id, retracted) };
    }
    default:
      return state;
  }
};

export const evolveMap = (state: MapState, event: MapEvent): MapState => {
  switch (event.type) {
    case 'storymap.created': {
      const { project_id, map_id, name, idea, key_prefix } = event.data;
      return { ...state, exists: true, project_id, map_id, name, idea, key_prefix };
    }
    case 'storymap.archived':
      return { ...state, archived: true };
    case 'storymap.restored':
      return { ...state, archived: false };
    case 'storymap.vision_answered':
      return { ...state, vision: { ...state.vision, ...event.data.answers } };
    case 'storymap.activity_added': {
      const { activity_id, name } = event.data;
      return { ...state, activities: [...state.activities, { activity_id, name }] };
    }
    case 'storymap.release_created':
    case 'storymap.release_renamed':
      return {
        ...state,
        releases: withEntry(state.releases, event.data.release_order, event.data.label),
      };
    case 'storymap.story_indexed': {
      const { story_id, key, title, cancelled } = event.data;
      return indexStory(state, { story_id, key, title, cancelled });
    }
    case 'storymap.dependencies_set':
      return {
        ...state,
        dependencies: withEntry(state.dependencies, event.data.story_id, event.data.depends_on),
      };
    case 'storymap.build_sequence_set':
      return {
        ...state,
        sequence: withEntry(
          state.sequence,
          event.data.story_id,
          event.data.build_sequence ?? undefined,
        ),
      };
    default:
      return evolveDecision(state, event);
  }
};

/** The map's stream keeps persisted snapshots (bump the version when evolve or the state changes). */
Snapshots.declare({
  name: 'storymap.map',
  version: 1,
  evolve: evolveMap,
  initialState: initialMap,
});
