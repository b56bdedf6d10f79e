import { invalidState } from '../errors.js';
import { requireCapability, type Caller } from './access.js';
import type { BatchEvents } from './batch.js';
import type { MapState } from './map-state.js';
import { requireMap, requireWritable } from './refs.js';
import { requireStory } from './story.js';
import type { StoryState } from './story-state.js';

export type CancelStory = { cancel: boolean; reason: string | null; caller: Caller };

/**
 * cancel_story / uncancel_story: the story's own record, and the map's index (a cancelled
 * story's title is free again for create_stories). The status is kept, never reset.
 */
export const decideCancel = (
  command: CancelStory,
  map: MapState,
  [story]: readonly StoryState[],
): BatchEvents => {
  requireCapability(command.caller, 'edit');
  requireWritable(requireMap(map));
  const s = requireStory(story!, story?.story_id ?? '');
  const on = { project_id: map.project_id, story_id: s.story_id };
  const by = command.caller.actor_id;
  if (command.cancel === (s.cancelled !== null))
    throw invalidState(
      command.cancel ? `${s.key} is already cancelled.` : `${s.key} isn't cancelled.`,
      { story_id: s.story_id },
    );
  const indexed = {
    type: 'storymap.story_indexed' as const,
    data: { ...on, key: s.key, title: s.title, cancelled: command.cancel },
  };
  return {
    map: [indexed],
    stories: [
      [
        command.cancel
          ? {
              type: 'story.cancelled',
              data: { ...on, reason: command.reason, status: s.status, by },
            }
          : { type: 'story.uncancelled', data: { ...on, status: s.status, by } },
      ],
    ],
  };
};
