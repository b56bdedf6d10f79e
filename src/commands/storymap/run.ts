import type { MapEvent, StoryEvent } from '../../events/storymap/index.js';
import type { AppendMeta, EventLog } from '../../events/index.js';
import {
  runMultiStreamCommand,
  type CommandOutcome,
  type CommandStream,
  type LoadedStream,
} from '../handler.js';
import type { BatchEvents } from './batch.js';
import { evolveMap, initialMap, mapStream, storyStream, type MapState } from './map-state.js';
import { evolveStory, initialStory, type StoryState } from './story-state.js';

export type BatchRun<R> = {
  projectId: string;
  /** the story streams the decision reads and writes, in this order */
  storyIds: readonly string[];
  decide(map: MapState, stories: readonly StoryState[]): BatchEvents;
  meta: AppendMeta;
  respond(map: MapState, stories: readonly StoryState[]): R;
};

type State = MapState | StoryState;
type Evt = MapEvent | StoryEvent;

const isMap = (s: State): s is MapState => 'next_key' in s;
const isStory = (s: State): s is StoryState => !isMap(s);
const isMapEvent = (e: Evt): e is MapEvent => e.type.startsWith('storymap.');

// One evolve per kind of stream for the process: the store's fold cache is keyed by them.
const foldMap = (s: State, e: Evt): State => (isMap(s) && isMapEvent(e) ? evolveMap(s, e) : s);
const foldStory = (s: State, e: Evt): State =>
  isStory(s) && !isMapEvent(e) ? evolveStory(s, e) : s;

const mapSpec = (projectId: string): CommandStream<State, Evt> => ({
  name: mapStream(projectId),
  initialState: initialMap,
  evolve: foldMap,
});

const storySpec = (projectId: string, storyId: string): CommandStream<State, Evt> => ({
  name: storyStream(projectId, storyId),
  initialState: initialStory,
  evolve: foldStory,
});

const split = (states: readonly State[]) => {
  const [map, ...stories] = states;
  if (!map || !isMap(map) || !stories.every(isStory))
    throw new TypeError('a batch loads the map, then stories');
  return { map, stories: stories.filter(isStory) };
};

export const loadMap = async (log: EventLog, projectId: string) =>
  log.aggregateStream(mapStream(projectId), { evolve: evolveMap, initialState: initialMap });

/**
 * One decision over the map's stream and some story streams, appended atomically: every stream
 * at the version it was loaded at, so a race with another writer re-decides (the dependency
 * graph, the key counter and the releases are the map's, decided under its version).
 */
export const runBatch = <R>(log: EventLog, run: BatchRun<R>): Promise<CommandOutcome<R>> =>
  runMultiStreamCommand<State, Evt, R>(log, {
    streams: [mapSpec(run.projectId), ...run.storyIds.map((id) => storySpec(run.projectId, id))],
    decide: (loaded: readonly LoadedStream<State>[]) => {
      const { map, stories } = split(loaded.map((l) => l.state));
      const events = run.decide(map, stories);
      return [events.map, ...run.storyIds.map((_, i) => events.stories[i] ?? [])];
    },
    meta: run.meta,
    respond: (states) => {
      const { map, stories } = split(states);
      return run.respond(map, stories);
    },
  });
