import type { DecisionCategory, MapEvent, VisionKey } from '../../events/catalog/storymap.js';
import { streamName } from '../../events/index.js';

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
 * A project's story map as its own stream decides it. The collections are Maps that `evolve`
 * extends in place: a map of 2,000 stories is folded on every command, and copying its
 * collections per event would make loading it quadratic. A state is folded once, from a fresh
 * `initialMap()`, and only the last state of a fold is read.
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
  releases: Map<number, string>;
  stories: Map<string, IndexedStory>;
  keys: Map<string, string>;
  dependencies: Map<string, readonly string[]>;
  sequence: Map<string, number>;
  decisions: Map<string, MapDecision>;
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
  releases: new Map(),
  stories: new Map(),
  keys: new Map(),
  dependencies: new Map(),
  sequence: new Map(),
  decisions: new Map(),
});

export const mapStream = (projectId: string): string =>
  streamName({ aggregateType: 'storymap', projectId, aggregateId: projectId });

export const storyStream = (projectId: string, storyId: string): string =>
  streamName({ aggregateType: 'story', projectId, aggregateId: storyId });

const indexStory = (state: MapState, story: IndexedStory): MapState => {
  state.stories.set(story.story_id, story);
  state.keys.set(story.key, story.story_id);
  const next = Number(story.key.slice(story.key.lastIndexOf('-') + 1)) + 1;
  return next > state.next_key ? { ...state, next_key: next } : { ...state };
};

const evolveDecision = (state: MapState, event: MapEvent): MapState => {
  switch (event.type) {
    case 'storymap.decision_logged': {
      const { decision_id, title, description, category } = event.data;
      state.decisions.set(decision_id, {
        decision_id,
        title,
        description,
        category,
        retracted: false,
      });
      return { ...state };
    }
    case 'storymap.decision_amended': {
      const { decision_id, by: _by, project_id: _p, ...changes } = event.data;
      const current = state.decisions.get(decision_id);
      if (current) state.decisions.set(decision_id, { ...current, ...changes });
      return { ...state };
    }
    case 'storymap.decision_retracted': {
      const current = state.decisions.get(event.data.decision_id);
      if (current) state.decisions.set(current.decision_id, { ...current, retracted: true });
      return { ...state };
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
      state.releases.set(event.data.release_order, event.data.label);
      return { ...state };
    case 'storymap.story_indexed': {
      const { story_id, key, title, cancelled } = event.data;
      return indexStory(state, { story_id, key, title, cancelled });
    }
    case 'storymap.dependencies_set':
      state.dependencies.set(event.data.story_id, event.data.depends_on);
      return { ...state };
    case 'storymap.build_sequence_set':
      if (event.data.build_sequence === null) state.sequence.delete(event.data.story_id);
      else state.sequence.set(event.data.story_id, event.data.build_sequence);
      return { ...state };
    default:
      return evolveDecision(state, event);
  }
};
