import { runCommand } from '../../commands/handler.js';
import type { Principal } from '../../commands/principal.js';
import type { Caller } from '../../commands/storymap/access.js';
import { mapDecider, type MapCommand } from '../../commands/storymap/map.js';
import { mapStream, storyStream, type MapState } from '../../commands/storymap/map-state.js';
import { requireMap, requireWritable, resolveStory } from '../../commands/storymap/refs.js';
import { loadMap } from '../../commands/storymap/run.js';
import { storyDecider, type StoryCommand } from '../../commands/storymap/story.js';
import type { StoryState } from '../../commands/storymap/story-state.js';
import type { App } from '../app.js';
import { callerOf, metaOf } from './access.js';

type In = { project_id: string };

/** A command on the map's own stream, as the caller the principal is on that project. */
export const mapCommand = async <R>(
  app: App,
  args: In,
  principal: Principal,
  command: (caller: Caller) => MapCommand,
  respond: (s: MapState) => R,
) => {
  const caller = await callerOf(app, args.project_id, principal);
  return runCommand(app.log, {
    decider: mapDecider,
    stream: mapStream(args.project_id),
    command: command(caller),
    meta: metaOf(caller),
    respond,
  });
};

/**
 * The caller, the writable map and the story a reference names: what a command on one story
 * starts from (an archived project is refused).
 */
export const storyTarget = async (
  app: App,
  args: In & { story_id: string },
  principal: Principal,
) => {
  const caller = await callerOf(app, args.project_id, principal);
  const map = requireWritable(requireMap((await loadMap(app.log, args.project_id)).state));
  return { caller, map, story_id: resolveStory(map, args.story_id).story_id };
};

/** A story-only command on its stream (see `storyTarget`). */
export const storyCommand = async <R>(
  app: App,
  args: In & { story_id: string },
  principal: Principal,
  command: (caller: Caller) => StoryCommand,
  respond: (s: StoryState) => R,
) => {
  const { caller, story_id } = await storyTarget(app, args, principal);
  return runCommand(app.log, {
    decider: storyDecider,
    stream: storyStream(args.project_id, story_id),
    command: command(caller),
    meta: metaOf(caller),
    respond,
  });
};
