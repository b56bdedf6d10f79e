import { runCommand } from '../commands/handler.js';
import type { Principal } from '../commands/principal.js';
import type { Caller } from '../commands/storymap/access.js';
import { mapDecider, type MapCommand } from '../commands/storymap/map.js';
import { mapStream, storyStream, type MapState } from '../commands/storymap/map-state.js';
import { requireMap, requireWritable, resolveStory } from '../commands/storymap/refs.js';
import { loadMap } from '../commands/storymap/run.js';
import { storyDecider, type StoryCommand } from '../commands/storymap/story.js';
import type { StoryState } from '../commands/storymap/story-state.js';
import type { App } from './app.js';
import { callerOf, metaOf } from './storymap-access.js';

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

/** A story-only command: the map resolves the reference and refuses an archived project. */
export const storyCommand = async <R>(
  app: App,
  args: In & { story_id: string },
  principal: Principal,
  command: (caller: Caller) => StoryCommand,
  respond: (s: StoryState) => R,
) => {
  const caller = await callerOf(app, args.project_id, principal);
  const map = requireWritable(requireMap((await loadMap(app.log, args.project_id)).state));
  const { story_id } = resolveStory(map, args.story_id);
  return runCommand(app.log, {
    decider: storyDecider,
    stream: storyStream(args.project_id, story_id),
    command: command(caller),
    meta: metaOf(caller),
    respond,
  });
};
