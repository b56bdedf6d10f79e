import { missingCriteria, activeMission } from '../../commands/missions/decide-mission.js';
import type { DeskEvent } from '../../commands/missions/desk-events.js';
import type { Desk } from '../../commands/missions/desk-state.js';
import { missionsError } from '../../commands/missions/errors.js';
import type { EvidenceItem } from '../../events/missions/index.js';
import type { Caller, GateArgs, MissionsCore, ProjectRef, Resolved } from './index.js';
import { confine, inProject } from './paths.js';
import { probeProjectPath } from '../project/files.js';

/** Closing a mission: completed against evidence files, or abandoned behind the owner gate. */
export const closeOps = (core: MissionsCore) => {
  const { run, runGated, resolve } = core;

  /**
   * Evidence paths confined to the project; only what exists counts as verified, looked at
   * through a descriptor held to the root (a link in its place is refused, never followed).
   */
  const verifyEvidence = async (
    root: string,
    evidence: Record<string, { paths: string[]; note?: string }>,
  ) => {
    const verified: Record<string, EvidenceItem> = {};
    const unverified: string[] = [];
    for (const [id, item] of Object.entries(evidence)) {
      const paths: string[] = [];
      for (const p of item.paths) {
        const located = await confine(root, p);
        const found = await inProject(() => probeProjectPath(root, located.relative));
        if (found !== 'missing') paths.push(located.relative);
        else unverified.push(located.relative);
      }
      verified[id] = { paths, note: item.note ?? null };
    }
    return { verified, unverified };
  };

  const closeMission = async (
    ref: ProjectRef,
    args: GateArgs & {
      mission_id: string;
      contract_version: number;
      closure: 'completed' | 'abandoned';
      outcome_summary: string;
      evidence?: Record<string, { paths: string[]; note?: string }>;
    },
    caller: Caller,
  ) => {
    const project: Resolved = await resolve(ref, caller);
    const desk = await core.desk(project.project_id);
    const mission = activeMission(desk, args.mission_id, args.contract_version);
    if (args.closure === 'completed' && project.root === null)
      throw missionsError(
        'device_mount_required',
        'checking evidence needs a device_id with a mount of the project',
        { device_id: project.device_id },
      );
    const { verified, unverified } = project.root
      ? await verifyEvidence(project.root, args.evidence ?? {})
      : { verified: {}, unverified: [] };
    const missing = missingCriteria(mission.contract, verified);
    if (args.closure === 'completed' && missing.length > 0)
      return {
        project,
        position: undefined,
        replayed: false,
        value: {
          mission_id: args.mission_id,
          status: 'incomplete' as const,
          missing_criteria: missing,
          unverified_paths: unverified,
          revoked_sessions: [] as string[],
        },
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
      return {
        mission_id: args.mission_id,
        status: args.closure,
        missing_criteria: [] as string[],
        unverified_paths: unverified,
        revoked_sessions: revoked?.type === 'lease.revoked' ? revoked.data.session_ids : [],
      };
    };
    const out =
      args.closure === 'completed'
        ? await run(project, { type: 'CloseMission', data: data(null) }, caller, respond)
        : await runGated(
            project,
            {
              args,
              operation: 'hai_close_mission',
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
