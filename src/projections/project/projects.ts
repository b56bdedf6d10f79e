import {
  ActorRegistered,
  ProjectCreated,
  RootBound,
  RootUnbound,
  type RoleSurface,
} from '../../events/project/index.js';
import { defineProjector, modelKey, modelKeyPrefix, type LogEventOf } from '../projector.js';
import { readsOf } from '../read-model.js';

/** A member as rosters show it: its role on each surface it takes part in. */
export type RosterEntry = {
  actor_id: string;
  display_name: string | null;
  roles: Partial<Record<RoleSurface, string>>;
  registered_at: string;
};

/** A project and its roster, as every surface shows it. */
export type ProjectView = {
  project_id: string;
  name: string;
  description: string | null;
  created_at: string;
  created_by: string;
  roster: RosterEntry[];
  roots: { root_hash: string; device: string }[];
};

export const ProjectKeys = {
  project: (projectId: string) => modelKey('project', projectId),
  /** one key per membership: the projects an actor belongs to, with its roles there */
  member: (actorId: string, projectId: string) => modelKey('member', actorId, projectId),
  memberPrefix: (actorId: string) => `${modelKey('member', actorId)}/`,
  root: (rootHash: string) => modelKey('root', rootHash),
};

/** The projects' reads beyond projectQueries: every project (the web view, OAuth consent). */
export const projectsModel = {
  projects: readsOf<ProjectView>('projects').range(() => modelKeyPrefix('project')),
};

type Event = LogEventOf<
  typeof ProjectCreated | typeof ActorRegistered | typeof RootBound | typeof RootUnbound
>;

const withMember = (view: ProjectView, e: Extract<Event, { type: 'actor.registered' }>) => {
  const { actor_id, surface, role, display_name } = e.data;
  const current = view.roster.find((m) => m.actor_id === actor_id);
  const member: RosterEntry = {
    actor_id,
    display_name,
    roles: { ...current?.roles, [surface]: role },
    registered_at: current?.registered_at ?? e.created_at,
  };
  const others = view.roster.filter((m) => m.actor_id !== actor_id);
  const roster = [...others, member].sort((a, b) => a.actor_id.localeCompare(b.actor_id));
  return { ...view, roster };
};

const fold = (view: ProjectView | undefined, e: Event): ProjectView | undefined => {
  if (e.type === 'project.created')
    return {
      project_id: e.data.project_id,
      name: e.data.name,
      description: e.data.description,
      created_at: e.created_at,
      created_by: e.actor_id,
      roster: [],
      roots: [],
    };
  if (!view) return undefined;
  switch (e.type) {
    case 'actor.registered':
      return withMember(view, e);
    case 'root.bound':
    case 'root.unbound': {
      const root = { root_hash: e.data.root_hash, device: e.data.device };
      const roots = view.roots.filter((r) => r.root_hash !== root.root_hash);
      return { ...view, roots: e.type === 'root.bound' ? [...roots, root] : roots };
    }
  }
};

/** Projects with their rosters; each actor's memberships; which project holds each root. */
export const projectsProjector = defineProjector({
  name: 'projects',
  // 2: ids encoded in keys; roles per surface
  version: 2,
  events: [ProjectCreated, ActorRegistered, RootBound, RootUnbound],
  async apply(event, tx) {
    const key = ProjectKeys.project(event.project_id);
    const view = fold(await tx.get<ProjectView>(key), event);
    if (view) tx.put(key, view);
    switch (event.type) {
      case 'actor.registered': {
        const member = ProjectKeys.member(event.data.actor_id, event.project_id);
        const roles = { ...(await tx.get<RosterEntry['roles']>(member)) };
        tx.put(member, { ...roles, [event.data.surface]: event.data.role });
        return;
      }
      case 'root.bound':
        return tx.put(ProjectKeys.root(event.data.root_hash), event.project_id);
      case 'root.unbound':
        return tx.del(ProjectKeys.root(event.data.root_hash));
    }
  },
});
