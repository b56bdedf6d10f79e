import { invalidState, notFound } from '../errors.js';
import type { IndexedStory, MapState } from './map-state.js';

/**
 * A story reference as the contract's tools take it: a key (`PB-42`, any case), a full UUID,
 * or a UUID prefix that names exactly one story. `#5` (a build-sequence reference) is resolved
 * by the read side, which knows the order.
 */
export const resolveStory = (map: MapState, ref: string): IndexedStory => {
  const wanted = ref.trim();
  const byKey = map.keys.get(wanted.toUpperCase());
  const direct = map.stories.get(byKey ?? wanted);
  if (direct) return direct;
  const prefix = wanted.toLowerCase();
  if (prefix.length >= 4) {
    const matches = [...map.stories.values()].filter((s) => s.story_id.startsWith(prefix));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1)
      throw notFound(
        `No story found matching "${ref}": the prefix names ${matches.length} stories`,
        {
          story_id: ref,
          candidates: matches.map((s) => s.key),
        },
      );
  }
  throw notFound(`No story found matching "${ref}"`, { story_id: ref });
};

/** The map, refusing when the project has none (contracts/storymap.md, "Common refusals"). */
export const requireMap = (map: MapState): MapState => {
  if (!map.exists) throw notFound('No story map found for this project');
  return map;
};

/** Writes to an archived project are refused until it is restored. */
export const requireWritable = (map: MapState): MapState => {
  if (map.archived)
    throw invalidState('The project is archived: restore it with restore_project first.', {
      project_id: map.project_id,
    });
  return map;
};
