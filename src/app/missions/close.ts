import { missingCriteria, activeMission } from '../../commands/missions/decide-mission.js';
import type { DeskEvent } from '../../commands/missions/desk-events.js';
import type { Desk } from '../../commands/missions/desk-state.js';
import { missionsError } from '../../commands/missions/errors.js';
import type { Caller, GateArgs, MissionsCore, ProjectRef, Resolved } from './index.js';
import { checkEvidence, type CheckedEvidence, type EvidenceArg } from './evidence.js';

/** Closing a mission: completed against evidence files, or abandoned behind the owner gate. */
export const closeOps = (core: MissionsCore) => {
  const { run, runGated, resolve } = core;

  const closeMission = async (
    ref: ProjectRef,
    args: GateArgs & {
      mission_id: string;
      contract_version: number;
      closure: 'completed' | 'abandoned';
      outcome_summary: string;
      evidence?: Record<string, EvidenceArg>;
    },
    caller: Caller,
  ) => {
    const project: Resolved = await resolve(
      { ...ref, via: { kind: 'mission', id: args.mission_id } },
      caller,
    );
    const desk = await core.desk(project.project_id);
    const mission = activeMission(desk, args.mission_id, args.contract_version);
    if (args.closure === 'completed' && project.root === null)
      throw missionsError(
        'device_mount_required',
        'checking evidence needs a device_id with a mount of the project',
        { device_id: project.device_id },
      );
    const checked: CheckedEvidence = project.root
      ? await checkEvidence(project.root, args.evidence ?? {})
      : { verified: {}, hashes: {}, unverified: [], invalid: [] };
    const { verified, unverified } = checked;
    const missing = missingCriteria(mission.contract, verified);
    // HAI-MCP's fields: what was verified (with hashes), what was refused, what came out
    const answer = (status: 'completed' | 'abandoned' | 'incomplete', revoked: string[]) => ({
      mission_id: args.mission_id,
      status,
      missing_criteria: status === 'incomplete' ? missing : [],
      unverified_paths: unverified,
      invalid_evidence: checked.invalid,
      verified_criteria: checked.hashes,
      outcome_summary: args.outcome_summary,
      next_mission: null,
      ...(status === 'abandoned' ? { reason: args.reason ?? args.outcome_summary } : {}),
      revoked_sessions: revoked,
    });
    if (args.closure === 'completed' && missing.length > 0)
      return {
        project,
        position: undefined,
        replayed: false,
        value: answer('incomplete', []),
      };
    const data = (gate: Parameters<Parameters<MissionsCore['runGated']>[2]>[0] | null) => ({
      project_id: project.project_id,
      now: core.now(),
      mission_id: args.mission_id,
      contract_version: args.contract_version,
      closure: args.closure,
      outcome_summary: args.outcome_summary,
      evidence: verified,
      gate,
    });
    const respond = (_s: Desk, events: readonly DeskEvent[]) => {
      const revoked = events.find((e) => e.type === 'lease.revoked');
      return answer(
        args.closure,
        revoked?.type === 'lease.revoked' ? revoked.data.session_ids : [],
      );
    };
    const out =
      args.closure === 'completed'
        ? await run(project, { type: 'CloseMission', data: data(null) }, caller, respond)
        : await runGated(
            project,
            {
              // an abandon needs a reason (the contract); HAI-MCP's call gives it as the summary
              args: { ...args, reason: args.reason ?? args.outcome_summary },
              operation: 'hai_close_mission',
              approves: `abandon ${args.mission_id} (contract v${args.contract_version}): ${args.reason ?? args.outcome_summary}`,
              change: {
                mission_id: args.mission_id,
                contract_version: args.contract_version,
                closure: args.closure,
                outcome_summary: args.outcome_summary,
              },
            },
            (gate) => ({ type: 'CloseMission', data: data(gate) }),
            caller,
            respond,
          );
    return { project, ...out };
  };

  return { closeMission };
};
