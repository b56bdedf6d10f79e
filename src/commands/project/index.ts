import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import {
  isRoleOf,
  type ActorRegistered,
  type ProjectCreated,
  type Role,
  type RoleSurface,
  type RootBound,
  type RootUnbound,
  type SurfaceRole,
} from '../../events/project/index.js';
import { forbidden, invalidArgument, invalidState, notFound } from '../errors.js';
import { principalId, type Principal } from '../principal.js';
import { own } from '../../events/own.js';
import { Snapshots } from '../snapshots.js';

export type ProjectEvent =
  | EventOf<typeof ProjectCreated>
  | EventOf<typeof ActorRegistered>
  | EventOf<typeof RootBound>
  | EventOf<typeof RootUnbound>;

/** A member's role on each surface it takes part in. */
export type SurfaceRoleMap = { [S in RoleSurface]?: SurfaceRole<S> };

export type Member = { actor_id: string; display_name: string | null; roles: SurfaceRoleMap };

export type Project = {
  exists: boolean;
  project_id: string;
  name: string;
  description: string | null;
  members: Record<string, Member>;
  /** canonical-root hash → device */
  roots: Record<string, string>;
};

/** A role on one surface, as a command names it. */
export type RoleGrant = { surface: RoleSurface; role: string };

export type ProjectCommand =
  | {
      type: 'CreateProject';
      data: {
        project_id: string;
        name: string;
        description: string | null;
        by: Principal;
        /**
         * The role the creating actor takes (the story map's creator is its owner). Without
         * it only the SYSTEM principal creates projects (governance.md: SYSTEM only).
         */
        owner?: RoleGrant;
      };
    }
  | {
      type: 'RegisterActor';
      data: RoleGrant & { actor_id: string; display_name: string | null; by: Principal };
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

/** The caller's role on a surface: SYSTEM for the system principal, else its membership's. */
export function roleOf(project: Project, by: Principal): Role | 'SYSTEM' | undefined;
export function roleOf<S extends RoleSurface>(
  project: Project,
  by: Principal,
  surface: S,
): SurfaceRole<S> | 'SYSTEM' | undefined;
export function roleOf(project: Project, by: Principal, surface: RoleSurface = 'governance') {
  return by.kind === 'system' ? 'SYSTEM' : own(project.members, by.actor_id)?.roles[surface];
}

/** Whether the caller holds any role in the project (or is SYSTEM). */
export const isMember = (project: Project, by: Principal): boolean =>
  by.kind === 'system' || Object.keys(own(project.members, by.actor_id)?.roles ?? {}).length > 0;

const requireProject = (state: Project): void => {
  if (!state.exists) throw notFound('project not found');
};

const requireMember = (state: Project, by: Principal): void => {
  if (!isMember(state, by)) throw forbidden('the caller has no active membership in this project');
};

const requireRole = (grant: RoleGrant): void => {
  if (!isRoleOf(grant.surface, grant.role))
    throw invalidArgument(`${grant.role} is not a ${grant.surface} role`, { ...grant });
};

/** Who may give roles on a surface: governance.md's rule for governance, an owner elsewhere. */
const mayGrant = (
  state: Project,
  data: Extract<ProjectCommand, { type: 'RegisterActor' }>['data'],
) => {
  const callerRole = roleOf(state, data.by, data.surface);
  if (data.surface !== 'governance') {
    if (callerRole !== 'SYSTEM' && callerRole !== 'owner')
      throw forbidden(`only an owner gives ${data.surface} roles`, { role: callerRole ?? null });
    return;
  }
  if (callerRole !== 'SYSTEM' && callerRole !== 'PO' && callerRole !== 'PM')
    throw forbidden('only SYSTEM, PO or PM may register actors', { role: callerRole ?? null });
  const current = own(state.members, data.actor_id)?.roles.governance;
  if (callerRole === 'PM' && (data.role === 'PO' || current === 'PO'))
    throw forbidden('a PM cannot appoint or change a PO');
};

const granted = (
  project_id: string,
  grant: RoleGrant,
  actor_id: string,
  display_name: string | null,
  by: Principal,
): ProjectEvent =>
  ({
    type: 'actor.registered',
    data: { project_id, actor_id, ...grant, display_name, registered_by: principalId(by) },
  }) as ProjectEvent;

const register = (
  state: Project,
  data: Extract<ProjectCommand, { type: 'RegisterActor' }>['data'],
): ProjectEvent[] => {
  requireProject(state);
  requireRole(data);
  requireMember(state, data.by);
  mayGrant(state, data);
  const current = own(state.members, data.actor_id);
  if (current?.roles[data.surface] === data.role && current.display_name === data.display_name)
    return [];
  const { surface, role, actor_id, display_name, by } = data;
  return [granted(state.project_id, { surface, role }, actor_id, display_name, by)];
};

const create = (
  state: Project,
  { by, owner, ...project }: Extract<ProjectCommand, { type: 'CreateProject' }>['data'],
): ProjectEvent[] => {
  if (by.kind !== 'system' && !owner) throw forbidden('only the SYSTEM principal creates projects');
  if (state.exists)
    throw invalidState('project already exists', { project_id: project.project_id });
  if (owner) requireRole(owner);
  const created: ProjectEvent = { type: 'project.created', data: project };
  if (by.kind === 'system' || !owner) return [created];
  return [created, granted(project.project_id, owner, by.actor_id, null, by)];
};

const decide = (command: ProjectCommand, state: Project): ProjectEvent[] => {
  switch (command.type) {
    case 'CreateProject':
      return create(state, command.data);
    case 'RegisterActor':
      return register(state, command.data);
    case 'BindRoot': {
      requireProject(state);
      requireMember(state, command.data.by);
      if (own(state.roots, command.data.root_hash) === command.data.device) return [];
      const { root_hash, device } = command.data;
      return [{ type: 'root.bound', data: { project_id: state.project_id, root_hash, device } }];
    }
    case 'UnbindRoot': {
      requireProject(state);
      requireMember(state, command.data.by);
      const device = own(state.roots, command.data.root_hash);
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
      const { actor_id, surface, role, display_name } = event.data;
      const roles = { ...own(state.members, actor_id)?.roles, [surface]: role };
      return {
        ...state,
        members: { ...state.members, [actor_id]: { actor_id, display_name, roles } },
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

export const projectDecider: Decider<Project, ProjectCommand, ProjectEvent> = Snapshots.of(
  { decide, evolve, initialState: initialProject },
  // bump whenever evolve or the project's shape changes (src/commands/snapshots.ts)
  { name: 'project.project', version: 1 },
);
