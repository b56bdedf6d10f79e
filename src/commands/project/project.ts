import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import type {
  ActorRegistered,
  ProjectCreated,
  Role,
  RootBound,
  RootUnbound,
} from '../../events/catalog/project.js';
import { forbidden, invalidState, notFound } from '../errors.js';
import { principalId, type Principal } from '../principal.js';

export type ProjectEvent =
  | EventOf<typeof ProjectCreated>
  | EventOf<typeof ActorRegistered>
  | EventOf<typeof RootBound>
  | EventOf<typeof RootUnbound>;

export type Member = { actor_id: string; role: Role; display_name: string | null };

export type Project = {
  exists: boolean;
  project_id: string;
  name: string;
  description: string | null;
  members: Record<string, Member>;
  /** canonical-root hash → device */
  roots: Record<string, string>;
};

export type ProjectCommand =
  | {
      type: 'CreateProject';
      data: { project_id: string; name: string; description: string | null; by: Principal };
    }
  | {
      type: 'RegisterActor';
      data: { actor_id: string; role: Role; display_name: string | null; by: Principal };
    }
  | { type: 'BindRoot'; data: { root_hash: string; device: string; by: Principal } }
  | { type: 'UnbindRoot'; data: { root_hash: string; by: Principal } };

export const initialProject = (): Project => ({
  exists: false,
  project_id: '',
  name: '',
  description: null,
  members: {},
  roots: {},
});

/** The caller's role in the project: SYSTEM for the system principal, else its membership. */
export const roleOf = (project: Project, by: Principal): Role | 'SYSTEM' | undefined =>
  by.kind === 'system' ? 'SYSTEM' : project.members[by.actor_id]?.role;

const requireProject = (state: Project): void => {
  if (!state.exists) throw notFound('project not found');
};

const requireMember = (state: Project, by: Principal): Role | 'SYSTEM' => {
  const role = roleOf(state, by);
  if (!role) throw forbidden('the caller has no active membership in this project');
  return role;
};

const register = (
  state: Project,
  data: Extract<ProjectCommand, { type: 'RegisterActor' }>['data'],
): ProjectEvent[] => {
  requireProject(state);
  const callerRole = requireMember(state, data.by);
  if (callerRole !== 'SYSTEM' && callerRole !== 'PO' && callerRole !== 'PM')
    throw forbidden('only SYSTEM, PO or PM may register actors', { role: callerRole });
  const current = state.members[data.actor_id];
  if (callerRole === 'PM' && (data.role === 'PO' || current?.role === 'PO'))
    throw forbidden('a PM cannot appoint or change a PO');
  if (current && current.role === data.role && current.display_name === data.display_name)
    return [];
  return [
    {
      type: 'actor.registered',
      data: {
        project_id: state.project_id,
        actor_id: data.actor_id,
        role: data.role,
        display_name: data.display_name,
        registered_by: principalId(data.by),
      },
    },
  ];
};

const decide = (command: ProjectCommand, state: Project): ProjectEvent[] => {
  switch (command.type) {
    case 'CreateProject': {
      const { by, ...project } = command.data;
      if (by.kind !== 'system') throw forbidden('only the SYSTEM principal creates projects');
      if (state.exists)
        throw invalidState('project already exists', { project_id: project.project_id });
      return [{ type: 'project.created', data: project }];
    }
    case 'RegisterActor':
      return register(state, command.data);
    case 'BindRoot': {
      requireProject(state);
      requireMember(state, command.data.by);
      if (state.roots[command.data.root_hash] === command.data.device) return [];
      const { root_hash, device } = command.data;
      return [{ type: 'root.bound', data: { project_id: state.project_id, root_hash, device } }];
    }
    case 'UnbindRoot': {
      requireProject(state);
      requireMember(state, command.data.by);
      const device = state.roots[command.data.root_hash];
      if (device === undefined) throw notFound('root is not bound to this project');
      const data = { project_id: state.project_id, root_hash: command.data.root_hash, device };
      return [{ type: 'root.unbound', data }];
    }
  }
};

const evolve = (state: Project, event: ProjectEvent): Project => {
  switch (event.type) {
    case 'project.created':
      return { ...state, exists: true, ...event.data };
    case 'actor.registered': {
      const { actor_id, role, display_name } = event.data;
      return {
        ...state,
        members: { ...state.members, [actor_id]: { actor_id, role, display_name } },
      };
    }
    case 'root.bound':
      return { ...state, roots: { ...state.roots, [event.data.root_hash]: event.data.device } };
    case 'root.unbound': {
      const { [event.data.root_hash]: _gone, ...roots } = state.roots;
      return { ...state, roots };
    }
  }
};

export const projectDecider: Decider<Project, ProjectCommand, ProjectEvent> = {
  decide,
  evolve,
  initialState: initialProject,
};
