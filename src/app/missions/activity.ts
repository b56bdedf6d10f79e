import { decideCheck, sessionStream } from '../../commands/missions/activity.js';
import { validLease } from '../../commands/missions/decide-lease.js';
import { missionsError } from '../../commands/missions/errors.js';
import type { Caller, MissionsCore, ProjectRef } from './index.js';
import { locate } from './paths.js';

/**
 * Activity checks: one classification against the lease's contract, recorded on the session's
 * own stream (the most frequent call; it contends with nothing).
 */
export const activityOps = (core: MissionsCore) => {
  const { resolve } = core;

  const checkActivity = async (
    ref: ProjectRef,
    args: {
      session_id: string;
      activity_step: string;
      criterion_id?: string;
      affected_paths?: string[];
      activity_kind?: string;
      trace_events?: { action: string }[];
      evidence?: Record<string, unknown>;
      declares_blocker?: boolean;
    },
    caller: Caller,
  ) => {
    const project = await resolve(
      { ...ref, via: { kind: 'session', id: args.session_id } },
      caller,
    );
    const now = core.now();
    const desk = await core.desk(project.project_id);
    const lease = validLease(desk, args.session_id, now);
    const contract = desk.missions.get(lease.mission_id)!.contract;
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
      affected_paths: affected.map((p) =>
        p.invalid
          ? // the log keeps text a store of any kind takes: the NUL byte written as `\0`
            { path: p.path.replace(/\0/g, '\\0'), inside_root: false, invalid: p.invalid }
          : { path: p.inside_root ? p.relative : p.path, inside_root: p.inside_root },
      ),
      activity_kind: args.activity_kind ?? null,
      trace_actions: (args.trace_events ?? []).map((t) => t.action),
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
        reason: reasons.join('; '),
        criterion_id: activity.criterion_id,
        activity_kind: activity.activity_kind,
        ...(args.evidence ? { evidence: args.evidence } : {}),
      },
    };
  };

  return { checkActivity };
};
