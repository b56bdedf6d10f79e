import { projectsModel } from '../../projections/project/projects.js';
import type { App } from '../../app/app.js';

/** Every actor on any project's roster, sorted: the choices a SYSTEM session may grant. */
export const knownActors = async (app: App): Promise<string[]> => {
  await app.waitFor(await app.log.head(), ['projects']);
  const projects = await projectsModel.projects.values(app.log.models);
  const ids = new Set(projects.flatMap((p) => p.roster.map((m) => m.actor_id)));
  return [...ids].sort();
};
