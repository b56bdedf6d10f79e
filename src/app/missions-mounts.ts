import { isDomainError } from '../commands/errors.js';
import { runMultiStreamCommand } from '../commands/handler.js';
import { missionsError } from '../commands/missions/errors.js';
import {
  LEGACY_MOUNT_STREAM,
  decideMount,
  evolveLegacyTable,
  implicitProjectId,
  initialLegacyTable,
  isImplicitProject,
  isMissionsOwner,
  mountStream,
  mountsFold,
  requireBindAck,
  projectFold,
  rootFold,
  type BindMount,
  type Mount,
  type MountStates,
  type MountStreamEvent,
  type ProjectMounts,
} from '../commands/missions/mounts.js';
import { SYSTEM, type Principal } from '../commands/principal.js';
import { loadProject, projectStream } from '../commands/project/project-commands.js';
import type { Project } from '../commands/project/project.js';
import { rootStream, type RootHolder } from '../commands/project/root.js';
import type { AppendMeta } from '../events/index.js';
import { sha256Hex } from '../events/codec.js';
import type { App } from './app.js';
import { canonicalRoot } from './missions-paths.js';
import { rootHash } from './roots.js';

/** How a call names its project: a directory, or a logical project id (with a device). */
export type ProjectRef = { project_path?: string; project_id?: string; device_id?: string };
export type Resolved = { project_id: string; root: string | null; device_id: string };

/**
 * Which project a call means, and binding directories to projects, on the kernel's one project
 * aggregate and root binding (commands/missions/mounts.ts). A directory no project holds
 * becomes its own project (`dir-…`, created by SYSTEM) on first use.
 */
export const missionsMounts = (
  app: App,
  deviceId: string,
  meta: (principal: Principal) => AppendMeta,
) => {
  const { log } = app;
  const fold = <S>(name: string, f: { evolve: (s: S, e: never) => S; initialState: () => S }) =>
    log.aggregateStream(name, f as never).then((r) => r.state as S);
  const holderOf = (hash: string) => fold<MountStates>(rootStream(hash), rootFold);
  const mountsOf = async (projectId: string) =>
    (await fold<MountStates>(mountStream(projectId), mountsFold)) as ProjectMounts;
  const legacy = () =>
    fold(LEGACY_MOUNT_STREAM, { evolve: evolveLegacyTable, initialState: initialLegacyTable });

  /** The project's mounts the kernel's binding backs, by device; the legacy table's if none. */
  const devicesOf = async (projectId: string, project?: Project): Promise<ProjectMounts> => {
    const kernel = project ?? (await loadProject(log, projectId));
    const live = Object.values(await mountsOf(projectId)).filter(
      (m) => kernel.roots[m.root_hash] !== undefined,
    );
    if (live.length > 0) return Object.fromEntries(live.map((m) => [m.device_id, m]));
    return (await legacy()).projects[projectId] ?? {};
  };

  const ensureProject = async (projectId: string, by: Principal) => {
    const owner =
      by.kind === 'system' ? undefined : ({ surface: 'missions', role: 'owner' } as const);
    const name = isImplicitProject(projectId) ? 'directory project' : projectId;
    await app.projects
      .create({ project_id: projectId, name, description: null }, { principal: by }, owner)
      .catch((error: unknown) => {
        if (!(isDomainError(error) && error.code === 'invalid_state')) throw error;
      });
  };

  /** Root, project binding and this device's path, in one atomic append. */
  const mount = (cmd: BindMount) =>
    runMultiStreamCommand<MountStates, MountStreamEvent, ProjectMounts>(log, {
      streams: [
        { name: projectStream(cmd.project_id), ...projectFold },
        { name: rootStream(cmd.root_hash), ...rootFold },
        { name: mountStream(cmd.project_id), ...mountsFold },
      ],
      decide: ([project, holder, mounts]) =>
        decideMount(
          project!.state as Project,
          holder!.state as RootHolder,
          mounts!.state as ProjectMounts,
          cmd,
        ),
      meta: meta(cmd.by),
      respond: ([, , mounts]) => mounts as ProjectMounts,
    });

  /** A directory is its own project until bound: the first use mounts it on this device. */
  const byPath = async (path: string): Promise<Resolved> => {
    const root = await canonicalRoot(path);
    const root_hash = rootHash(root);
    const holder = (await holderOf(root_hash)) as RootHolder;
    if (holder.project_id !== null) {
      const held = Object.values(await mountsOf(holder.project_id)).find(
        (m) => m.root_hash === root_hash && m.local_path === root,
      );
      if (held) return { project_id: held.project_id, root, device_id: held.device_id };
    }
    // bound by another surface (no path recorded yet), in the legacy table, or new
    const old = holder.project_id === null ? (await legacy()).roots[sha256Hex(root)] : undefined;
    const project_id = holder.project_id ?? old?.project_id ?? implicitProjectId(root_hash);
    const device_id = old?.device_id ?? deviceId;
    if (holder.project_id === null) await ensureProject(project_id, SYSTEM);
    const reason = old ? 'adopted from the earlier mount table' : 'first use by path';
    const data = { project_id, device_id, local_path: root, root_hash, implicit: true, reason };
    await mount({ ...data, owner_ack: false, by: SYSTEM });
    return { project_id, root, device_id };
  };

  const resolve = async (ref: ProjectRef): Promise<Resolved> => {
    if (ref.project_path !== undefined) return byPath(ref.project_path);
    if (ref.project_id === undefined)
      throw missionsError('invalid_args', 'name the project: project_path or project_id');
    const devices = await devicesOf(ref.project_id);
    if (Object.keys(devices).length === 0)
      throw missionsError('missing_project', 'no such project: bind it with hai_bind_project', {
        project_id: ref.project_id,
      });
    const device_id = ref.device_id ?? deviceId;
    return { project_id: ref.project_id, root: devices[device_id]?.local_path ?? null, device_id };
  };

  /**
   * `hai_bind_project`: an explicit, owner-gated bind. A new project is created with the caller
   * as its missions owner; a directory an implicit `dir-` project holds is released from it.
   */
  const bind = async (
    args: Omit<Mount, 'root_hash' | 'implicit'> & { owner_ack: boolean; reason: string },
    by: Principal,
  ) => {
    const root = await canonicalRoot(args.local_path);
    const root_hash = rootHash(root);
    const cmd = { ...args, local_path: root, root_hash, implicit: false, by };
    // the acknowledgement is checked before anything is created, and again with the mount
    requireBindAck(args.owner_ack, args.reason);
    await ensureProject(args.project_id, by);
    const holder = (await holderOf(root_hash)) as RootHolder;
    if (
      holder.project_id !== null &&
      holder.project_id !== args.project_id &&
      isImplicitProject(holder.project_id)
    )
      await app.projects.unbindRoot(
        { project_id: holder.project_id, root_hash },
        { principal: SYSTEM },
      );
    const out = await mount(cmd);
    return { ...out, root, root_hash };
  };

  /** Whether the caller may pass an owner gate of this project (SYSTEM or a missions owner). */
  const mayOwn = async (projectId: string, by: Principal) =>
    by.kind === 'system' || isMissionsOwner(await loadProject(log, projectId), by);

  return { resolve, bind, devicesOf, mayOwn, loadProject: (id: string) => loadProject(log, id) };
};
