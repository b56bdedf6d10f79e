import { randomUUID } from 'node:crypto';
import { runCommand } from '../../commands/handler.js';
import { principalId, type Principal } from '../../commands/principal.js';
import { invalidArgument } from '../../commands/errors.js';
import { mapDecider } from '../../commands/storymap/map.js';
import { mapStream } from '../../commands/storymap/map-state.js';
import { STORYMAP_STORIES, storyMapModel } from '../../projections/storymap/stories.js';
import type { MapView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { metaOf } from './access.js';

/** "Within a few minutes" (contracts/storymap.md, create_project): ten. */
export const SAME_PROJECT_WINDOW_MS = 10 * 60 * 1000;

/** Story keys start with the project's initials: "Photo Book" → PB, "Atlas" → ATL. */
export const keyPrefixOf = (name: string): string => {
  const words = name.toUpperCase().match(/[A-Z0-9]+/g) ?? [];
  if (words.length === 0) return 'ST';
  if (words.length === 1) return words[0]!.slice(0, 3);
  return words
    .slice(0, 4)
    .map((w) => w[0])
    .join('');
};

const recentTwin = async (
  app: App,
  name: string,
  idea: string,
  by: string,
): Promise<MapView | undefined> => {
  await app.waitFor(await app.log.head(), [STORYMAP_STORIES]);
  const maps = await storyMapModel.maps.entries(app.log.models);
  const now = app.clock().getTime();
  return maps
    .map(([, m]) => m)
    .find(
      (m) =>
        m.name === name &&
        m.idea === idea &&
        m.created_by === by &&
        now - Date.parse(m.created_at) < SAME_PROJECT_WINDOW_MS,
    );
};

/**
 * create_project: one project in the shared project aggregate (the caller its story-map owner)
 * and its story map. The same name and idea from the same caller within ten minutes answers
 * the project made then instead of a second one.
 */
export const createProject = async (
  app: App,
  args: { name: string; idea: string; client: string | null },
  principal: Principal,
) => {
  const name = args.name.trim();
  const idea = args.idea.trim();
  if (!name || !idea) throw invalidArgument('name and idea must be non-empty strings');
  const by = principalId(principal);
  const twin = await recentTwin(app, name, idea, by);
  if (twin) return { project_id: twin.project_id, name: twin.name, created: false, position: 0 };
  const project_id = randomUUID();
  const owner =
    principal.kind === 'actor' ? { surface: 'storymap' as const, role: 'owner' } : undefined;
  await app.projects.create({ project_id, name, description: idea }, { principal }, owner);
  const caller = { actor_id: by, role: 'owner' as const };
  const outcome = await runCommand(app.log, {
    decider: mapDecider,
    stream: mapStream(project_id),
    command: {
      type: 'CreateMap',
      data: {
        project_id,
        map_id: project_id,
        name,
        idea,
        key_prefix: keyPrefixOf(name),
        client: args.client,
        caller,
      },
    },
    meta: metaOf(caller),
    respond: (s) => s,
  });
  return { project_id, name, created: true, position: outcome.position };
};
