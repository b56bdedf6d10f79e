import type { EventOf } from '../../events/catalog/define.js';
import type { ProjectMounted } from '../../events/catalog/missions.js';
import { streamName } from '../../events/stream-name.js';
import { SYSTEM_PROJECT } from '../ids.js';
import { principalId, type Principal } from '../principal.js';
import { projectDecider, roleOf, type Project, type ProjectEvent } from '../project/project.js';
import {
  claimRoot,
  evolveRootHolder,
  initialRootHolder,
  type RootEvent,
  type RootHolder,
} from '../project/root.js';
import { missionsError } from './errors.js';

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
  const previous = projects[mount.project_id]?.[mount.device_id];
  if (previous) delete roots[previous.root_hash];
  const holder = roots[mount.root_hash];
  if (holder) {
    const { [holder.device_id]: _gone, ...rest } = projects[holder.project_id] ?? {};
    projects[holder.project_id] = rest;
  }
  roots[mount.root_hash] = mount;
  projects[mount.project_id] = { ...projects[mount.project_id], [mount.device_id]: mount };
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
      { gate: 'ack_legacy', status: 'owner_ack_required' },
    );
};

export type BindMount = Mount & { owner_ack: boolean; reason: string; by: Principal };

/**
 * Decides a mount over the three streams it touches: the project (`root.bound`), the root
 * (`root.claimed`) and the project's mounts. An explicit bind is owner-gated twice: owner_ack
 * with a reason, and the caller must be SYSTEM or hold the missions `owner` role. A root held
 * by another project is refused here; the service releases an implicit holder first.
 */
export const decideMount = (
  project: Project,
  holder: RootHolder,
  mounts: ProjectMounts,
  cmd: BindMount,
): [ProjectEvent[], RootEvent[], MountEvent[]] => {
  const { by, owner_ack, ...data } = cmd;
  if (!data.implicit) requireBindAck(owner_ack, data.reason);
  if (!project.exists)
    throw missionsError('missing_project', 'no such project', { project_id: data.project_id });
  if (!data.implicit && !isMissionsOwner(project, by)) throw ownerRoleRequired(project, by);
  if (holder.project_id !== null && holder.project_id !== data.project_id)
    throw missionsError('invalid_args', 'this directory is already the root of another project', {
      bound_to: { project_id: holder.project_id, device_id: holder.device },
    });
  const binding = { root_hash: data.root_hash, device: data.device_id };
  const bound = projectDecider.decide({ type: 'BindRoot', data: { ...binding, by } }, project);
  const claimed = claimRoot(holder, { ...binding, project_id: data.project_id });
  const current = mounts[data.device_id];
  const same =
    current?.local_path === data.local_path &&
    current.root_hash === data.root_hash &&
    // an explicit bind upgrades an implicit mount; an implicit use never downgrades one
    (!current.implicit || data.implicit);
  const mounted: MountEvent[] = same ? [] : [{ type: 'mission_project.mounted', data }];
  return [Array.isArray(bound) ? bound : [bound], claimed, mounted];
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
