import type { Role } from '../events/catalog/project.js';
import type { Projector } from './projector.js';

/** A project and its roster, as get_project shows it. */
export type ProjectView = {
  project_id: string;
  name: string;
  description: string | null;
  created_at: string;
  created_by: string;
  roster: { actor_id: string; role: Role; display_name: string | null; registered_at: string }[];
  roots: { root_hash: string; device: string }[];
};

type Data = Record<string, unknown>;

const fold = (view: ProjectView | undefined, type: string, data: Data, at: string, by: string) => {
  if (type === 'project.created')
    return {
      project_id: data.project_id as string,
      name: data.name as string,
      description: (data.description as string | null) ?? null,
      created_at: at,
      created_by: by,
      roster: [],
      roots: [],
    };
  if (!view) return undefined;
  if (type === 'actor.registered') {
    const member = {
      actor_id: data.actor_id as string,
      role: data.role as Role,
      display_name: (data.display_name as string | null) ?? null,
      registered_at: at,
    };
    const others = view.roster.filter((m) => m.actor_id !== member.actor_id);
    return {
      ...view,
      roster: [...others, member].sort((a, b) => a.actor_id.localeCompare(b.actor_id)),
    };
  }
  const root = { root_hash: data.root_hash as string, device: data.device as string };
  const roots = view.roots.filter((r) => r.root_hash !== root.root_hash);
  return { ...view, roots: type === 'root.bound' ? [...roots, root] : roots };
};

export const projectsProjector: Projector = {
  name: 'projects',
  version: 1,
  handles: ['project.created', 'actor.registered', 'root.bound', 'root.unbound'],
  async apply(event, tx) {
    const key = `project/${event.project_id}`;
    const view = fold(
      await tx.get<ProjectView>(key),
      event.type,
      event.data,
      event.created_at,
      event.actor_id,
    );
    if (view) tx.put(key, view);
    if (event.type === 'actor.registered')
      tx.put(`member/${event.data.actor_id as string}/${event.project_id}`, event.data.role);
    if (event.type === 'root.bound')
      tx.put(`root/${event.data.root_hash as string}`, event.project_id);
    if (event.type === 'root.unbound') tx.del(`root/${event.data.root_hash as string}`);
  },
};
