import type { EventOf } from '../../events/catalog/define.js';
import type { ProjectMounted } from '../../events/missions/index.js';
import { streamName } from '../../events/stream-name.js';
import { SYSTEM_PROJECT } from '../ids.js';
import { principalId, type Principal } from '../principal.js';
import { projectDecider, roleOf, type Project, type ProjectEvent } from '../project/index.js';
import {
  claimRoot,
  evolveRootHolder,
  initialRootHolder,
  releaseRoot,
  type RootEvent,
  type RootHolder,
} from '../project/root.js';
import { missionsError } from './errors.js';
import { own, setOwn } from '../../events/own.js';

/**
 * Mounts: which local directory is a project on which device. Which project a root belongs to
 * is the kernel's: `root.claimed` on the root's own stream and `root.bound` on the one project
 * aggregate every surface shares. The missions context adds only what the kernel does not keep,
 * the directory's path on each device (it writes the artifacts there), on a stream per project.
 * All three are appended in one atomic command, so a root belongs to one project across
 * surfaces and a mount never names a root its project does not hold.
 */
export const mountStream = (projectId: string): string =>
  streamName({ aggregateType: 'mission_mounts', projectId, aggregateId: 'mounts' });

/**
 * Before mounts moved onto the project aggregate they lived in one table stream for the whole
 * ledger (root hash = SHA-256 of the path). Its events stay readable: a root or project only it
 * knows is adopted onto the kernel's binding on first use by path (docs/decisions.md).
 */
export const LEGACY_MOUNT_STREAM = streamName({
  aggregateType: 'mission_mounts',
  projectId: SYSTEM_PROJECT,
  aggregateId: 'table',
});

export type Mount = {
  project_id: string;
  device_id: string;
  local_path: string;
  root_hash: string;
  implicit: boolean;
};
export type MountEvent = EventOf<typeof ProjectMounted>;

/** One project's mounts: device → mount. */
export type ProjectMounts = Record<string, Mount>;

export const initialMounts = (): ProjectMounts => ({});
export const evolveMounts = (mounts: ProjectMounts, { data }: MountEvent): ProjectMounts => {
  const { reason: _r, ...mount } = data;
  return { ...mounts, [mount.device_id]: mount };
};

/** The legacy table, folded as it always was: project → device → mount, and root → mount. */
export type LegacyTable = {
  projects: Record<string, Record<string, Mount>>;
  roots: Record<string, Mount>;
};
export const initialLegacyTable = (): LegacyTable => ({ projects: {}, roots: {} });
export const evolveLegacyTable = (table: LegacyTable, { data }: MountEvent): LegacyTable => {
  const { reason: _r, ...mount } = data;
  const projects = { ...table.projects };
  const roots = { ...table.roots };
  const previous = own(own(projects, mount.project_id), mount.device_id);
  if (previous) delete roots[previous.root_hash];
  const holder = own(roots, mount.root_hash);
  if (holder) {
    const { [holder.device_id]: _gone, ...rest } = own(projects, holder.project_id) ?? {};
    setOwn(projects, holder.project_id, rest);
  }
  setOwn(roots, mount.root_hash, mount);
  setOwn(projects, mount.project_id, {
    ...own(projects, mount.project_id),
    [mount.device_id]: mount,
  });
  return { projects, roots };
};

/** The id of a project known only by its directory: derived from the canonical root's hash. */
export const implicitProjectId = (rootHash: string): string => `dir-${rootHash.slice(0, 24)}`;
export const isImplicitProject = (projectId: string): boolean =>
  /^dir-[0-9a-f]{24}$/.test(projectId);

/** Whether the caller may make owner-gated missions changes: SYSTEM or a missions owner. */
export const isMissionsOwner = (project: Project, by: Principal): boolean => {
  const role = roleOf(project, by, 'missions');
  return role === 'SYSTEM' || role === 'owner';
};

/** Whether the caller acts on the project's missions: SYSTEM or any missions role. */
export const isMissionsMember = (project: Project, by: Principal): boolean =>
  roleOf(project, by, 'missions') !== undefined;

/**
 * The one answer for a project the caller may not see: the same for a project that does not
 * exist and one whose members do not include the caller, so it tells nothing of another's.
 */
export const notYourProject = (named: Record<string, unknown>) =>
  missionsError(
    'missing_project',
    'no such project for you: bind it with hai_bind_project, or ask its owner to add you',
    named,
  );

export const ownerRoleRequired = (project: Project, by: Principal) =>
  missionsError(
    'owner_role_required',
    'only an owner of this project (missions role owner) makes owner-gated changes',
    { project_id: project.project_id, actor_id: principalId(by), required_role: 'owner' },
  );

/** `hai_bind_project` keeps owner_ack=true + reason in both gate modes (the contract's table). */
export const requireBindAck = (owner_ack: boolean, reason: string): void => {
  if (owner_ack !== true || reason.trim() === '')
    throw missionsError(
      'owner_gate_required',
      'binding a project needs owner_ack=true and a reason',
      { gate: 'ack_legacy', status: 'pending_owner_confirmation', owner_ack_required: true },
    );
};

export type BindMount = Mount & {
  owner_ack: boolean;
  reason: string;
  by: Principal;
  /** a project that does not exist yet is created, the caller (an actor) its missions owner */
  create?: boolean;
};

/** The project a mount creates: the creating actor is its missions owner; SYSTEM takes no role. */
const created = (project: Project, cmd: BindMount): [ProjectEvent[], Project] => {
  const { project_id, by } = cmd;
  const decided = projectDecider.decide(
    {
      type: 'CreateProject',
      data: {
        project_id,
        name: isImplicitProject(project_id) ? 'directory project' : project_id,
        description: null,
        by,
        ...(by.kind === 'actor' ? { owner: { surface: 'missions', role: 'owner' } } : {}),
      },
    },
    project,
  );
  const events = Array.isArray(decided) ? decided : [decided];
  return [events, events.reduce(projectDecider.evolve, project)];
};

/**
 * Decides a mount over the three streams it touches: the project (`root.bound`), the root
 * (`root.claimed`) and the project's mounts, creating the project first when `create` says so
 * (in the same atomic append: a refused mount creates nothing). An explicit bind is owner-gated
 * twice: owner_ack with a reason, and the caller must be SYSTEM or hold the missions `owner`
 * role; an implicit one (first use by path) needs a missions member. A root held by another
 * project is refused unless `heldBy` says the caller may take it from its implicit holder.
 */
export const decideMount = (
  project: Project,
  holder: RootHolder,
  mounts: ProjectMounts,
  cmd: BindMount,
  heldBy?: Project,
): [ProjectEvent[], RootEvent[], MountEvent[], ProjectEvent[]] => {
  const { by, owner_ack, create, ...data } = cmd;
  if (!data.implicit) requireBindAck(owner_ack, data.reason);
  const [creation, current] = !project.exists && create ? created(project, cmd) : [[], project];
  if (!current.exists)
    throw missionsError('missing_project', 'no such project', { project_id: data.project_id });
  if (!data.implicit && !isMissionsOwner(current, by)) throw ownerRoleRequired(current, by);
  if (data.implicit && !isMissionsMember(current, by))
    throw notYourProject({ project_path: data.local_path });
  const [released, releasedFrom, free] = release(holder, data, by, heldBy);
  const binding = { root_hash: data.root_hash, device: data.device_id };
  const bound = projectDecider.decide({ type: 'BindRoot', data: { ...binding, by } }, current);
  const claimed = claimRoot(free, { ...binding, project_id: data.project_id });
  const mounted = own(mounts, data.device_id);
  const same =
    mounted?.local_path === data.local_path &&
    mounted.root_hash === data.root_hash &&
    // an explicit bind upgrades an implicit mount; an implicit use never downgrades one
    (!mounted.implicit || data.implicit);
  const mount: MountEvent[] = same ? [] : [{ type: 'mission_project.mounted', data }];
  return [
    [...creation, ...(Array.isArray(bound) ? bound : [bound])],
    [...released, ...claimed],
    mount,
    releasedFrom,
  ];
};

/**
 * Lets go of a root another project holds when the caller may take it: the holder is a project
 * known only by its directory (`dir-…`) and the caller owns it (SYSTEM does). Else refused.
 */
const release = (
  holder: RootHolder,
  data: Mount,
  by: Principal,
  heldBy: Project | undefined,
): [RootEvent[], ProjectEvent[], RootHolder] => {
  if (holder.project_id === null || holder.project_id === data.project_id) return [[], [], holder];
  const held = heldBy?.project_id === holder.project_id ? heldBy : undefined;
  if (!held || !isImplicitProject(held.project_id) || !isMissionsOwner(held, by)) {
    // who holds it is told only to whoever may see that project
    const visible = by.kind === 'system' || (held !== undefined && isMissionsMember(held, by));
    throw missionsError('invalid_args', 'this directory is already the root of another project', {
      bound_to: visible ? { project_id: holder.project_id, device_id: holder.device } : null,
    });
  }
  const unbound = projectDecider.decide(
    { type: 'UnbindRoot', data: { root_hash: data.root_hash, by } },
    held,
  );
  return [
    releaseRoot(holder, data.root_hash),
    Array.isArray(unbound) ? unbound : [unbound],
    initialRootHolder(),
  ];
};

/** The folds of the three streams, typed as one union for the multi-stream command. */
export type MountStates = Project | RootHolder | ProjectMounts;
export type MountStreamEvent = ProjectEvent | RootEvent | MountEvent;
// One object per fold for the process: the command path's fold cache is keyed by them.
export const projectFold = {
  evolve: (s: MountStates, e: MountStreamEvent) =>
    projectDecider.evolve(s as Project, e as ProjectEvent),
  initialState: projectDecider.initialState as () => MountStates,
};
export const rootFold = {
  evolve: (s: MountStates, e: MountStreamEvent) =>
    evolveRootHolder(s as RootHolder, e as RootEvent),
  initialState: initialRootHolder as () => MountStates,
};
export const mountsFold = {
  evolve: (s: MountStates, e: MountStreamEvent) =>
    evolveMounts(s as ProjectMounts, e as MountEvent),
  initialState: initialMounts as () => MountStates,
};
