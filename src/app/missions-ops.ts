import { decideCheck, sessionStream } from '../commands/missions/activity.js';
import type { ContractChanges } from '../commands/missions/contract.js';
import { validLease } from '../commands/missions/decide-lease.js';
import { liveLeases, type Desk } from '../commands/missions/desk-state.js';
import { missionsError } from '../commands/missions/errors.js';
import type { ContractBody } from '../events/missions/index.js';
import { newId } from '../events/ids.js';
import type { Caller, GateArgs, MissionsCore, ProjectRef } from './missions/index.js';
import { confine, locate } from './missions/paths.js';

/** Missions, leases and activity checks: the gate matrix's mission rows. */

export type ContractInput = Omit<ContractBody, 'constraints' | 'non_goals'> & {
  non_goals?: string[];
  constraints?: Partial<ContractBody['constraints']>;
};

const DEFAULT_MAX_SESSIONS = 1;

/** allowed_paths as relative, confined prefixes ('' when the root itself) */
const confinePaths = async (root: string | null, paths: readonly string[]) => {
  if (root === null) return [...paths];
  return Promise.all(paths.map(async (p) => (await confine(root, p)).relative));
};

const missionView = (desk: Desk, missionId: string) => {
  const m = desk.missions[missionId]!;
  return {
    mission_id: m.mission_id,
    status: m.status,
    contract_version: m.contract_version,
    contract_hash: m.contract_hash,
    contract: m.contract,
  };
};

export const missionOps = (core: MissionsCore) => {
  const { run, runGated, resolve } = core;

  const refOfContract = (c: ContractInput['constraints']): ProjectRef => {
    if (c?.project_path) return { project_path: c.project_path };
    if (c?.project_id) return { project_id: c.project_id };
    throw missionsError(
      'invalid_args',
      'constraints.project_path or constraints.project_id names the project',
    );
  };

  const openMission = async (input: ContractInput, caller: Caller) => {
    const project = await resolve(refOfContract(input.constraints), caller);
    const c = input.constraints ?? {};
    const contract: ContractBody = {
      objective: input.objective,
      artifact: input.artifact,
      done_criteria: input.done_criteria,
      non_goals: input.non_goals ?? [],
      owner: input.owner,
      constraints: {
        project_path: c.project_path ? project.root : null,
        project_id: c.project_path ? null : project.project_id,
        allowed_paths: await confinePaths(project.root, c.allowed_paths ?? []),
        capabilities: c.capabilities ?? [],
        max_parallel_sessions: c.max_parallel_sessions ?? DEFAULT_MAX_SESSIONS,
        time_limit_hours: c.time_limit_hours ?? null,
      },
    };
    const mission_id = newId('mission');
    const data = { project_id: project.project_id, now: core.now(), mission_id, contract };
    const out = await run(project, { type: 'OpenMission', data }, caller, (s) =>
      missionView(s, mission_id),
    );
    return { project, ...out };
  };

  const authorizeSession = async (
    ref: ProjectRef,
    args: {
      mission_id: string;
      contract_version: number;
      agent_identity: string;
      role: string;
      contribution: string;
      expected_result: string;
      duration_minutes: number;
      criterion_ids: string[];
      request_id: string;
      capabilities?: string[];
      device_id?: string;
      harness_id?: string;
    },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    const mounted =
      args.device_id === undefined
        ? null
        : (await core.mounts.devicesOf(project.project_id))[args.device_id] !== undefined;
    const { request_id, ...rest } = args;
    const session_id = newId('session');
    const data = {
      ...rest,
      project_id: project.project_id,
      now: core.now(),
      session_id,
      capabilities: args.capabilities ?? [],
      device_id: args.device_id ?? null,
      harness_id: args.harness_id ?? null,
      device_mounted: mounted,
    };
    const out = await run(
      project,
      { type: 'AuthorizeSession', data },
      caller,
      (s) => {
        const lease = s.leases[session_id]!;
        const { revoked: _r, ...granted } = lease;
        return { ...granted, contract_hash: s.missions[lease.mission_id]!.contract_hash };
      },
      { key: request_id, operation: 'hai_authorize_session', args: { ...rest, ...ref } },
    );
    return { project, ...out };
  };

  const getContract = async (ref: ProjectRef, sessionId: string, caller: Caller) => {
    const project = await resolve(ref, caller);
    const desk = await core.desk(project.project_id);
    const lease = validLease(desk, sessionId, core.now());
    return {
      project,
      value: {
        session_id: sessionId,
        expires_at: lease.expires_at,
        ...missionView(desk, lease.mission_id),
      },
    };
  };

  const checkActivity = async (
    ref: ProjectRef,
    args: {
      session_id: string;
      activity_step: string;
      criterion_id?: string;
      affected_paths?: string[];
      activity_kind?: string;
      declares_blocker?: boolean;
    },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    const now = core.now();
    const desk = await core.desk(project.project_id);
    const lease = validLease(desk, args.session_id, now);
    const contract = desk.missions[lease.mission_id]!.contract;
    if (project.root === null && (args.affected_paths?.length ?? 0) > 0)
      throw missionsError(
        'device_mount_required',
        'paths need this device’s mount of the project',
        { device_id: project.device_id },
      );
    const affected = await Promise.all(
      (args.affected_paths ?? []).map((p) => locate(project.root!, p)),
    );
    const activity = {
      activity_step: args.activity_step,
      criterion_id: args.criterion_id ?? null,
      affected_paths: affected.map((p) => ({
        path: p.inside_root ? p.relative : p.path,
        inside_root: p.inside_root,
      })),
      activity_kind: args.activity_kind ?? null,
      declares_blocker: args.declares_blocker ?? false,
    };
    // The audit record goes to the session's own stream, appended without loading it: no
    // invariant lives there (the lease was checked on the desk), and checks never contend.
    const command = {
      type: 'CheckActivity' as const,
      data: { ...activity, project_id: project.project_id, lease, contract, now },
    };
    const events = decideCheck(command);
    const stream = sessionStream(project.project_id, lease.session_id);
    const appended = await core.log.appendToStream(stream, events, {
      meta: core.meta(caller.principal),
    });
    const { classification, required_action, reasons } = events[0]!.data;
    return {
      project,
      position: Number(appended.lastEventGlobalPosition),
      value: {
        session_id: lease.session_id,
        mission_id: lease.mission_id,
        contract_version: lease.contract_version,
        classification,
        required_action,
        reasons,
      },
    };
  };

  const recontract = async (
    ref: ProjectRef,
    args: GateArgs & {
      mission_id: string;
      contract_version: number;
      reason: string;
      changes: ContractChanges;
      mode?: 'normal' | 'break_glass';
      break_glass_marker?: boolean;
    },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    const changes = args.changes.constraints?.allowed_paths
      ? {
          ...args.changes,
          constraints: {
            ...args.changes.constraints,
            allowed_paths: await confinePaths(project.root, args.changes.constraints.allowed_paths),
          },
        }
      : args.changes;
    const data = (gate: Parameters<Parameters<MissionsCore['runGated']>[2]>[0]) => ({
      project_id: project.project_id,
      now: core.now(),
      mission_id: args.mission_id,
      contract_version: args.contract_version,
      changes,
      reason: args.reason,
      mode: args.mode ?? 'normal',
      break_glass_marker: args.break_glass_marker ?? false,
      gate,
    });
    const out = await runGated(
      project,
      {
        args: { ...args, reason: args.reason },
        operation: 'hai_recontract',
        change: { mission_id: args.mission_id, from_version: args.contract_version, changes },
      },
      (gate) => ({ type: 'Recontract', data: data(gate) }),
      caller,
      (s, events) => {
        const done = events.find((e) => e.type === 'mission.recontracted');
        const revoked = events.find((e) => e.type === 'lease.revoked');
        return {
          ...missionView(s, args.mission_id),
          diff: done?.type === 'mission.recontracted' ? done.data.diff : [],
          revoked_sessions: revoked?.type === 'lease.revoked' ? revoked.data.session_ids : [],
        };
      },
    );
    return { project, ...out };
  };

  const liveSessions = (desk: Desk) =>
    desk.active_mission_id ? liveLeases(desk, desk.active_mission_id, core.now()).length : 0;
  return {
    openMission,
    authorizeSession,
    getContract,
    checkActivity,
    recontract,
    liveSessions,
  };
};
