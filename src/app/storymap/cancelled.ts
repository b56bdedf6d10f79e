import { isDomainError } from '../../commands/errors.js';
import type { Principal } from '../../commands/principal.js';
import { storyStream } from '../../commands/storymap/map-state.js';
import { resolveStory } from '../../commands/storymap/refs.js';
import { loadMap } from '../../commands/storymap/run.js';
import { evolveStory, initialStory } from '../../commands/storymap/story-state.js';
import type { App } from '../app.js';
import { callerOf } from './access.js';

export type CancelledStory = {
  story_id: string;
  key: string;
  title: string;
  reason: string | null;
};

/**
 * The first of `refs` that names a cancelled story, read from the map's own stream as the
 * commands read it (cached folds, no wait for the read models): the local server's hard stop
 * costs a write what the write itself costs to load. A reference naming no story is not a
 * cancelled one; the tool it was given to refuses it in its own words.
 */
export const cancelledAmong = async (
  app: App,
  projectId: string,
  refs: readonly string[],
  principal: Principal,
): Promise<CancelledStory | undefined> => {
  await callerOf(app, projectId, principal);
  const { state: map } = await loadMap(app.log, projectId);
  for (const ref of refs) {
    let story;
    try {
      story = resolveStory(map, ref);
    } catch (error) {
      if (isDomainError(error) && error.code === 'not_found') continue;
      throw error;
    }
    if (!story.cancelled) continue;
    const { state } = await app.log.aggregateStream(storyStream(projectId, story.story_id), {
      evolve: evolveStory,
      initialState: initialStory,
    });
    return {
      story_id: story.story_id,
      key: story.key,
      title: story.title,
      reason: state.cancelled?.reason ?? null,
    };
  }
  return undefined;
};
