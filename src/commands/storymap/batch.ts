import type { MapEvent, MapState } from './map-state.js';
import type { StoryEvent, StoryState } from './story-state.js';

/**
 * A decision over the map and some stories, written in one atomic append: the events for the
 * map's stream, and for each story stream in the order the stories were loaded.
 */
export type BatchEvents = { map: MapEvent[]; stories: StoryEvent[][] };

export type BatchDecide<C> = (
  command: C,
  map: MapState,
  stories: readonly StoryState[],
) => BatchEvents;

/** The activity every story without one goes to (the contract names none). */
export const DEFAULT_ACTIVITY = 'General';

/** Finds an activity by name, ignoring case and surrounding spaces. */
export const findActivity = (map: MapState, name: string) => {
  const wanted = name.trim().toLowerCase();
  return map.activities.find((a) => a.name.toLowerCase() === wanted);
};
