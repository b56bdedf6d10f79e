import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import type { AppendMeta, EventLog } from '../../events/index.js';
import type { CommandOutcome } from '../handler.js';
import type { BatchEvents } from './batch.js';
import { evolveMap, initialMap, mapStream, storyStream, type MapState } from './map-state.js';
import { evolveStory, initialStory, type StoryState } from './story-state.js';

export type BatchRun<R> = {
  projectId: string;
  /** the story streams the decision reads and writes, in this order */
  storyIds: readonly string[];
  decide(map: MapState, stories: readonly StoryState[]): BatchEvents;
  meta: AppendMeta;
  respond(map: MapState, stories: readonly StoryState[], events: BatchEvents): R;
};

export const loadMap = async (log: EventLog, projectId: string) =>
  log.aggregateStream(mapStream(projectId), { evolve: evolveMap, initialState: initialMap });

export const loadStory = async (log: EventLog, projectId: string, storyId: string) =>
  log.aggregateStream(storyStream(projectId, storyId), {
    evolve: evolveStory,
    initialState: initialStory,
  });

const RETRIES = 10;

/**
 * One decision over the map's stream and some story streams. INTERIM: until the kernel's
 * atomic multi-stream append (`runMultiStreamCommand`) is on main, the map's events are
 * appended first with the version the map was loaded at (so every cross-story invariant is
 * still decided under the map's expected version: a race re-decides), then each story's with
 * its own. A crash between the two appends could leave the map ahead of a story.
 */
export const runBatch = async <R>(log: EventLog, run: BatchRun<R>): Promise<CommandOutcome<R>> => {
  for (let attempt = 0; ; attempt++) {
    const map = await loadMap(log, run.projectId);
    const loaded = await Promise.all(run.storyIds.map((id) => loadStory(log, run.projectId, id)));
    const stories = loaded.map((l) => l.state);
    const events = run.decide(map.state, stories);
    const nextMap = events.map.reduce(evolveMap, map.state);
    const nextStories = stories.map((s, i) => (events.stories[i] ?? []).reduce(evolveStory, s));
    const response = run.respond(nextMap, nextStories, events);
    let position = 0;
    try {
      if (events.map.length > 0) {
        const appended = await log.appendToStream(mapStream(run.projectId), events.map, {
          expectedStreamVersion: map.streamExists ? map.currentStreamVersion : STREAM_DOES_NOT_EXIST,
          meta: run.meta,
        });
        position = Number(appended.lastEventGlobalPosition);
      }
    } catch (error) {
      if (attempt < RETRIES && (error as { name?: string }).name === 'ExpectedVersionConflictError')
        continue;
      throw error;
    }
    for (const [i, id] of run.storyIds.entries()) {
      const storyEvents = events.stories[i] ?? [];
      if (storyEvents.length === 0) continue;
      const l = loaded[i]!;
      const appended = await log.appendToStream(storyStream(run.projectId, id), storyEvents, {
        expectedStreamVersion: l.streamExists ? l.currentStreamVersion : STREAM_DOES_NOT_EXIST,
        meta: run.meta,
      });
      position = Number(appended.lastEventGlobalPosition);
    }
    return { result: response, position, replayed: false };
  }
};
