import { validLease } from '../../commands/missions/decide-lease.js';
import type { LeaseTerms } from '../../commands/missions/desk-state.js';
import { newId } from '../../events/ids.js';
import { own } from '../../events/own.js';
import type { Caller, MissionsCore, ProjectRef } from './index.js';
import { missionView } from './mission-view.js';

/** Session leases: granting one on an exact contract version, and reading its contract. */
export const leaseOps = (core: MissionsCore) => {
  const { run, resolve } = core;

  const authorizeSession = async (
    ref: ProjectRef,
    args: LeaseTerms & {
      duration_minutes: number;
      request_id?: string;
      capabilities?: string[];
      device_id?: string;
      harness_id?: string;
    },
    caller: Caller,
  ) => {
    const project = await resolve(
      { ...ref, via: { kind: 'mission', id: args.mission_id } },
      caller,
    );
    const mounted =
      args.device_id === undefined
        ? null
        : own(await core.mounts.devicesOf(project.project_id), args.device_id) !== undefined;
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
        const lease = s.leases.get(session_id)!;
        const { revoked: _r, ...granted } = lease;
        return { ...granted, contract_hash: s.missions.get(lease.mission_id)!.contract_hash };
      },
      // without a request_id a retry takes another lease (no idempotency)
      request_id === undefined
        ? undefined
        : { key: request_id, operation: 'hai_authorize_session', args: { ...rest, ...ref } },
    );
    return { project, ...out };
  };

  const getContract = async (ref: ProjectRef, sessionId: string, caller: Caller) => {
    const project = await resolve({ ...ref, via: { kind: 'session', id: sessionId } }, caller);
    const desk = await core.desk(project.project_id);
    const now = core.now();
    const lease = validLease(desk, sessionId, now);
    const view = missionView(desk, lease.mission_id);
    return {
      project,
      value: {
        session_id: sessionId,
        expires_at: lease.expires_at,
        // whole seconds the lease has left (HAI-MCP rounds down, never below 0)
        remaining_seconds: Math.max(
          0,
          Math.floor((Date.parse(lease.expires_at) - Date.parse(now)) / 1000),
        ),
        ...view,
        // HAI-MCP's clients read these beside the contract
        done_criteria: view.contract.done_criteria,
        non_goals: view.contract.non_goals,
      },
    };
  };

  return { authorizeSession, getContract };
};
