import { runMultiStreamCommand } from '../../commands/handler.js';
import { missionsError } from '../../commands/missions/errors.js';
import {
  LEGACY_MOUNT_STREAM,
  decideMount,
  evolveLegacyTable,
  implicitProjectId,
  initialLegacyTable,
  isMissionsMember,
  isMissionsOwner,
  mountStream,
  mountsFold,
  notYourProject,
  requireBindAck,
  projectFold,
  rootFold,
  type Mount,
  type MountStates,
  type MountStreamEvent,
  type ProjectMounts,
} from '../../commands/missions/mounts.js';
import type { Principal } from '../../commands/principal.js';
import {
  loadProject as loadKernelProject,
  projectStream,
} from '../../commands/project/commands.js';
import type { Project } from '../../commands/project/index.js';
import { rootStream, type RootHolder } from '../../commands/project/root.js';
import type { AppendMeta } from '../../events/index.js';
import { sha256Hex } from '../../events/codec.js';
import type { App } from '../app.js';
import { canonicalRoot, refuseLinkOut } from './paths.js';
import { rootGrant, type RootAsker } from '../project/roots.js';
import { rootHash } from '../project/canonical-root.js';
import { own } from '../../events/own.js';

/** How a call names its project: a directory, or a logical project id (with a device). */
export type ProjectRef = { project_path?: string; project_id?: string; device_id?: string };

/** A directory a change mounts on first use by path, in the same append as the change. */
export type PendingMount = Omit<Mount, 'project_id' | 'implicit'> & { reason: string };

/** The project a call acts on; `mount`: not yet mounted here, a change mounts it. */
export type Resolved = {
  project_id: string;
  root: string | null;
  device_id: string;
  mount?: PendingMount;
};

/** Who calls a missions tool: its principal, and the roots its session declared. */
export type Caller = RootAsker;

/**
 * Which project a call means, and binding directories to projects, on the kernel's one project
 * aggregate and root binding (commands/missions/mounts.ts). Resolving never appends: a
 * directory no project holds is its own project (`dir-…`), created and mounted by the first
 * change made in it (`mountStreams` + `decideMount`, in that change's own append). A caller
 * sees only projects it is a member of (missions roles) and directories the server allows it
 * (project/roots.ts).
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
  const loadProject = (id: string) => loadKernelProject(log, id);

  /** The project's mounts the kernel's binding backs, by device; the legacy table's if none. */
  const devicesOf = async (projectId: string, project?: Project): Promise<ProjectMounts> => {
    const kernel = project ?? (await loadProject(projectId));
    const live = Object.values(await mountsOf(projectId)).filter(
      (m) => own(kernel.roots, m.root_hash) !== undefined,
    );
    if (live.length > 0) return Object.fromEntries(live.map((m) => [m.device_id, m]));
    return own((await legacy()).projects, projectId) ?? {};
  };

  /** Refuses a directory the server does not let this caller name (nothing is appended). */
  const requireAllowed = async (root: string, caller: Caller, bound: boolean, path: string) => {
    if ((await rootGrant(app, root, caller, bound)) === undefined)
      throw missionsError(
        'path_outside_root',
        'this directory is outside the roots this server allows: a root your client declared, a --project-root of the server, or a directory an owner bound',
        { project_path: path },
      );
  };

  /** The root's holder and, if any, its mount of exactly this path. */
  const heldAt = async (root: string, root_hash: string) => {
    const holder = (await holderOf(root_hash)) as RootHolder;
    const held =
      holder.project_id === null
        ? undefined
        : Object.values(await mountsOf(holder.project_id)).find(
            (m) => m.root_hash === root_hash && m.local_path === root,
          );
    return { holder, held };
  };

  const byPath = async (path: string, caller: Caller): Promise<Resolved> => {
    const root = await canonicalRoot(path);
    const root_hash = rootHash(root);
    const { holder, held } = await heldAt(root, root_hash);
    // bound by another surface (no path recorded yet), in the legacy table, or new
    const old =
      holder.project_id === null ? own((await legacy()).roots, sha256Hex(root)) : undefined;
    const project_id =
      held?.project_id ?? holder.project_id ?? old?.project_id ?? implicitProjectId(root_hash);
    const explicit = held ? !held.implicit : old !== undefined && !old.implicit;
    await requireAllowed(root, caller, explicit, path);
    const project = await loadProject(project_id);
    if (project.exists && !isMissionsMember(project, caller.principal))
      throw notYourProject({ project_path: path });
    if (held) return { project_id, root, device_id: held.device_id };
    const device_id = old?.device_id ?? deviceId;
    const reason = old ? 'adopted from the earlier mount table' : 'first use by path';
    return {
      project_id,
      root,
      device_id,
      mount: { device_id, local_path: root, root_hash, reason },
    };
  };

  const byId = async (ref: ProjectRef & { project_id: string }, caller: Caller) => {
    const project = await loadProject(ref.project_id);
    const devices = isMissionsMember(project, caller.principal)
      ? await devicesOf(ref.project_id, project)
      : {};
    if (Object.keys(devices).length === 0) throw notYourProject({ project_id: ref.project_id });
    const device_id = ref.device_id ?? deviceId;
    return {
      project_id: ref.project_id,
      root: own(devices, device_id)?.local_path ?? null,
      device_id,
    };
  };

  /** The project a call names, for this caller; appends nothing. */
  const resolve = async (ref: ProjectRef, caller: Caller): Promise<Resolved> => {
    if (ref.project_path !== undefined) return byPath(ref.project_path, caller);
    if (ref.project_id === undefined)
      throw missionsError('invalid_args', 'name the project: project_path or project_id');
    return byId({ ...ref, project_id: ref.project_id }, caller);
  };

  /** The streams a first use by path mounts over, after the change's own stream. */
  const mountStreams = (project_id: string, root_hash: string) => [
    { name: projectStream(project_id), ...projectFold },
    { name: rootStream(root_hash), ...rootFold },
    { name: mountStream(project_id), ...mountsFold },
  ];

  /**
   * `hai_bind_project`: an explicit, owner-gated bind, in one atomic append. A project that
   * does not exist yet is created with the caller as its missions owner; one that exists (made
   * by any surface) needs its missions owner; a directory an implicit `dir-` project of the
   * caller holds is released from it. An actor binds only a directory the server allows it.
   */
  const bind = async (
    args: Omit<Mount, 'root_hash' | 'implicit'> & { owner_ack: boolean; reason: string },
    caller: Caller,
  ) => {
    // the acknowledgement is checked before the disk is looked at, and again in the decision
    requireBindAck(args.owner_ack, args.reason);
    const root = await canonicalRoot(args.local_path);
    refuseLinkOut(args.local_path);
    const root_hash = rootHash(root);
    const { holder, held } = await heldAt(root, root_hash);
    const rebind = held?.project_id === args.project_id && !held.implicit;
    await requireAllowed(root, caller, rebind, args.local_path);
    const by = caller.principal;
    const cmd = { ...args, local_path: root, root_hash, implicit: false, by, create: true };
    const from = holder.project_id !== null && holder.project_id !== args.project_id;
    // the holder lets go first: read models fold the unbinding before the new binding
    const streams = [
      ...(from ? [{ name: projectStream(holder.project_id!), ...projectFold }] : []),
      ...mountStreams(args.project_id, root_hash),
    ];
    const out = await runMultiStreamCommand<MountStates, MountStreamEvent, ProjectMounts>(log, {
      streams,
      decide: (loaded) => {
        const [heldBy, project, root, mounts] = from ? loaded : [undefined, ...loaded];
        const [p, r, m, released] = decideMount(
          project!.state as Project,
          root!.state as RootHolder,
          mounts!.state as ProjectMounts,
          cmd,
          heldBy?.state as Project | undefined,
        );
        return from ? [released, p, r, m] : [p, r, m];
      },
      meta: meta(by),
      respond: (states) => states.at(-1) as ProjectMounts,
    });
    return { ...out, root, root_hash };
  };

  /**
   * Whether the caller may pass an owner gate of this project: SYSTEM or a missions owner; the
   * first change in a new directory makes its caller the owner.
   */
  const mayOwn = async (project: Resolved, by: Principal) => {
    const kernel = await loadProject(project.project_id);
    return !kernel.exists && project.mount !== undefined ? true : isMissionsOwner(kernel, by);
  };

  return { resolve, bind, devicesOf, mayOwn, mountStreams, loadProject };
};

export type MissionsMounts = ReturnType<typeof missionsMounts>;
