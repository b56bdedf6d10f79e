import type { DeskCommandOf } from './desk-commands.js';
import type { DeskEvent } from './desk-events.js';
import { liveLeases, type Desk, type Lease } from './desk-state.js';
import { missionsError } from './errors.js';
import { activeMission } from './decide-mission.js';

/**
 * Session leases: a time-bounded right to work on one contract version. Capacity is decided on
 * the project's one stream, so of two agents racing for the last slot exactly one wins.
 */

const MINUTE = 60_000;

const checkScope = (
  cmd: DeskCommandOf<'AuthorizeSession'>,
  criteria: string[],
  capabilities: string[],
) => {
  const unknown = cmd.criterion_ids.filter((id) => !criteria.includes(id));
  if (cmd.criterion_ids.length === 0 || unknown.length > 0)
    throw missionsError('invalid_args', 'criterion_ids must name done criteria of the contract', {
      unknown_criteria: unknown,
      criteria,
    });
  const ungranted = cmd.capabilities.filter((c) => !capabilities.includes(c));
  if (ungranted.length > 0)
    throw missionsError('invalid_args', 'capabilities must be granted by the contract', {
      ungranted_capabilities: ungranted,
      capabilities,
    });
};

export const authorizeSession = (
  desk: Desk,
  cmd: DeskCommandOf<'AuthorizeSession'>,
): DeskEvent[] => {
  const mission = activeMission(desk, cmd.mission_id, cmd.contract_version);
  const { constraints, done_criteria } = mission.contract;
  if (constraints.project_id !== null && (cmd.device_id === null || cmd.device_mounted !== true))
    throw missionsError(
      'device_mount_required',
      'this contract names a logical project: give a device_id with a mount of it (hai_bind_project)',
      {
        project_id: constraints.project_id,
        device_id: cmd.device_id,
      },
    );
  checkScope(
    cmd,
    done_criteria.map((c) => c.id),
    constraints.capabilities,
  );
  const live = liveLeases(desk, mission.mission_id, cmd.now);
  if (live.length >= constraints.max_parallel_sessions)
    throw missionsError('parallel_session_denied', 'every session slot of this mission is taken', {
      max_parallel_sessions: constraints.max_parallel_sessions,
      active_sessions: live.map((l) => l.session_id),
    });
  const { now, duration_minutes, device_mounted: _m, ...lease } = cmd;
  const expires_at = new Date(Date.parse(now) + duration_minutes * MINUTE).toISOString();
  return [
    {
      type: 'lease.granted',
      data: { ...lease, project_id: desk.project_id, granted_at: now, expires_at },
    },
  ];
};

/**
 * A lease that may act at `now`, or the contract's refusal: revoked, expired (pause), or tied
 * to a contract version that is no longer current.
 */
export const validLease = (desk: Desk, sessionId: string, now: string): Lease => {
  const lease = desk.leases.get(sessionId);
  if (!lease)
    throw missionsError('invalid_args', `session not found: ${sessionId}`, {
      session_id: sessionId,
      classification: 'unclear',
      required_action: 'pause',
    });
  if (lease.revoked)
    throw missionsError('lease_revoked', `the lease was revoked (${lease.revoked})`, {
      session_id: sessionId,
      reason: lease.revoked,
      required_action: 'stop',
    });
  if (lease.expires_at <= now)
    throw missionsError('lease_expired', 'the session lease expired', {
      session_id: sessionId,
      expired_at: lease.expires_at,
      required_action: 'pause',
    });
  const mission = activeMission(desk, lease.mission_id);
  if (mission.contract_version !== lease.contract_version)
    throw missionsError('contract_version_mismatch', 'the lease is for an older contract version', {
      session_id: sessionId,
      lease_version: lease.contract_version,
      current_version: mission.contract_version,
    });
  return lease;
};
