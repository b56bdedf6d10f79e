import { sha256Hex } from '../../events/codec.js';
import type { ContractBody, EvidenceItem } from '../../events/missions/index.js';
import {
  applyChanges,
  contractDiff,
  contractHash,
  contractIssues,
  reviewDetails,
} from './contract.js';
import type { DeskCommandOf } from './desk-commands.js';
import type { DeskEvent } from './desk-events.js';
import { liveLeases, type Desk, type Mission } from './desk-state.js';
import { missionsError } from './errors.js';
import { changeFingerprint, decideGate } from './owner-gate.js';
import { own } from '../../events/own.js';

/** Missions: open one finite contract at a time, recontract behind the gate, close with evidence. */

const reviewRequired = (body: ContractBody) => {
  const issues = contractIssues(body);
  if (issues.length > 0)
    throw missionsError(
      'review_required',
      `the contract needs review: ${issues.map((i) => i.message).join('; ')}`,
      reviewDetails(issues),
    );
};

export const activeMission = (desk: Desk, missionId: string, version?: number): Mission => {
  const mission = desk.missions.get(missionId);
  if (!mission || mission.status !== 'active')
    throw missionsError('mission_not_active', 'the mission is not active', {
      mission_id: missionId,
      status: mission?.status ?? 'unknown',
    });
  if (version !== undefined && version !== mission.contract_version)
    throw missionsError('contract_version_mismatch', 'the contract has another version now', {
      mission_id: missionId,
      expected_version: version,
      current_version: mission.contract_version,
    });
  return mission;
};

export const openMission = (desk: Desk, cmd: DeskCommandOf<'OpenMission'>): DeskEvent[] => {
  if (desk.active_mission_id)
    throw missionsError('active_mission_exists', 'close the active mission first', {
      active_mission_id: desk.active_mission_id,
    });
  reviewRequired(cmd.contract);
  const data = {
    project_id: desk.project_id,
    mission_id: cmd.mission_id,
    contract_version: 1 as const,
    contract: cmd.contract,
    contract_hash: contractHash(cmd.contract),
    opened_at: cmd.now,
  };
  return [{ type: 'mission.opened', data }];
};

const revokeAll = (
  desk: Desk,
  missionId: string,
  now: string,
  reason: 'recontract' | 'close' | 'stop',
): DeskEvent[] => {
  const session_ids = liveLeases(desk, missionId, now).map((l) => l.session_id);
  return session_ids.length === 0
    ? []
    : [{ type: 'lease.revoked', data: { project_id: desk.project_id, session_ids, reason } }];
};

export const recontract = (desk: Desk, cmd: DeskCommandOf<'Recontract'>): DeskEvent[] => {
  const mission = activeMission(desk, cmd.mission_id, cmd.contract_version);
  if (!cmd.reason.trim()) throw missionsError('invalid_args', 'a recontract needs a reason');
  if (cmd.mode === 'break_glass' && !cmd.break_glass_marker)
    throw missionsError('owner_gate_required', 'break_glass needs break_glass_marker=true', {
      mode: cmd.mode,
      detail: 'break_glass_marker_required',
    });
  const contract = applyChanges(mission.contract, cmd.changes);
  const diff = contractDiff(mission.contract, contract);
  if (diff.length === 0)
    throw missionsError('invalid_args', 'recontract changes produce an empty diff');
  reviewRequired(contract);
  const change = {
    mission_id: mission.mission_id,
    from_version: mission.contract_version,
    diff,
    mode: cmd.mode,
  };
  const fingerprint = changeFingerprint('hai_recontract', desk.project_id, change);
  const gate = decideGate(desk, cmd.gate, 'hai_recontract', fingerprint, cmd.now);
  if (!gate.passed) return gate.events;
  const data = {
    project_id: desk.project_id,
    mission_id: mission.mission_id,
    from_version: mission.contract_version,
    contract_version: mission.contract_version + 1,
    contract,
    contract_hash: contractHash(contract),
    diff,
    reason: cmd.reason,
    mode: cmd.mode,
    gate: gate.gate,
    recontracted_at: cmd.now,
  };
  return [
    ...gate.events,
    { type: 'mission.recontracted', data },
    ...revokeAll(desk, mission.mission_id, cmd.now, 'recontract'),
  ];
};

/** Criteria with no evidence file the service found inside the project. */
export const missingCriteria = (
  contract: ContractBody,
  evidence: Record<string, EvidenceItem>,
): string[] =>
  contract.done_criteria
    .filter((c) => (own(evidence, c.id)?.paths.length ?? 0) === 0)
    .map((c) => c.id);

export const closeMission = (desk: Desk, cmd: DeskCommandOf<'CloseMission'>): DeskEvent[] => {
  const mission = activeMission(desk, cmd.mission_id, cmd.contract_version);
  const base = {
    project_id: desk.project_id,
    mission_id: mission.mission_id,
    contract_version: mission.contract_version,
    closure: cmd.closure,
    outcome_summary: cmd.outcome_summary,
    evidence: cmd.evidence,
    closed_at: cmd.now,
  };
  const revoked = revokeAll(desk, mission.mission_id, cmd.now, 'close');
  if (cmd.closure === 'completed') {
    // incomplete is an answer, not an error: nothing is written, the mission stays active
    if (missingCriteria(mission.contract, cmd.evidence).length > 0) return [];
    return [{ type: 'mission.closed', data: { ...base, gate: null } }, ...revoked];
  }
  if (!cmd.gate) throw missionsError('owner_gate_required', 'abandoning a mission is owner-gated');
  const change = {
    mission_id: mission.mission_id,
    contract_version: mission.contract_version,
    closure: cmd.closure,
    outcome_summary_sha256: sha256Hex(cmd.outcome_summary),
  };
  const fingerprint = changeFingerprint('hai_close_mission', desk.project_id, change);
  const gate = decideGate(desk, cmd.gate, 'hai_close_mission', fingerprint, cmd.now);
  if (!gate.passed) return gate.events;
  return [
    ...gate.events,
    { type: 'mission.closed', data: { ...base, gate: gate.gate } },
    ...revoked,
  ];
};

export const stopDay = (desk: Desk, cmd: DeskCommandOf<'Stop'>): DeskEvent[] => {
  const { now, ...answers } = cmd;
  const revoked = desk.active_mission_id
    ? revokeAll(desk, desk.active_mission_id, now, 'stop')
    : [];
  return [
    { type: 'day.stopped', data: { ...answers, project_id: desk.project_id, stopped_at: now } },
    ...revoked,
  ];
};
