import {
  applyChanges,
  contractDiff,
  type ContractChanges,
} from '../../commands/missions/contract.js';
import { domainError, isDomainError } from '../../commands/errors.js';
import type { FieldChange } from '../../events/missions/index.js';
import type { Caller, GateArgs, MissionsCore, ProjectRef } from './index.js';
import {
  confinePaths,
  inputIssues,
  recontractChanges,
  requireReviewed,
  type ChangesArg,
} from './contract-input.js';
import { missionView } from './mission-view.js';

/** A diff row in both vocabularies: ours (`before`/`after`) and HAI-MCP's (`old`/`new`). */
const withOldNew = (diff: readonly FieldChange[]) =>
  diff.map((d) => ({ ...d, old: d.before, new: d.after }));

/** Recontracting: field-level changes, the diff the owner approves, behind the owner gate. */
export const recontractOps = (core: MissionsCore) => {
  const { runGated, resolve } = core;

  const recontract = async (
    ref: ProjectRef,
    args: GateArgs & {
      mission_id: string;
      contract_version: number;
      reason: string;
      changes: ChangesArg;
      mode?: 'normal' | 'break_glass';
      break_glass_marker?: boolean;
    },
    caller: Caller,
  ) => {
    const project = await resolve(
      { ...ref, via: { kind: 'mission', id: args.mission_id } },
      caller,
    );
    const current = (await core.desk(project.project_id)).missions.get(args.mission_id);
    const asked = recontractChanges(current?.contract, args.changes);
    const paths = asked.constraints?.allowed_paths;
    requireReviewed(
      inputIssues(project.root, {
        ...(args.changes.done_criteria ? { done_criteria: args.changes.done_criteria } : {}),
        ...(paths ? { allowed_paths: paths } : {}),
      }),
      current && applyChanges(current.contract, asked),
    );
    const changes: ContractChanges = paths
      ? {
          ...asked,
          constraints: {
            ...asked.constraints,
            allowed_paths: await confinePaths(project.root, paths),
          },
        }
      : asked;
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
    // the diff the owner approves, shown in the owner's message and on a refusal of the gate
    const diff = current
      ? contractDiff(current.contract, applyChanges(current.contract, changes))
      : [];
    const mode = args.mode ?? 'normal';
    const approves = [
      `recontract ${args.mission_id} from v${args.contract_version} (${mode}): ${args.reason}`,
      ...diff.map((d) => `${d.field}: ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}`),
    ].join('\n');
    const gated = runGated(
      project,
      {
        args: { ...args, reason: args.reason },
        operation: 'hai_recontract',
        change: { mission_id: args.mission_id, from_version: args.contract_version, changes },
        approves,
      },
      (gate) => ({ type: 'Recontract', data: data(gate) }),
      caller,
      (s, events) => {
        const done = events.find((e) => e.type === 'mission.recontracted');
        const revoked = events.find((e) => e.type === 'lease.revoked');
        return {
          ...missionView(s, args.mission_id),
          diff: withOldNew(done?.type === 'mission.recontracted' ? done.data.diff : []),
          revoked_sessions: revoked?.type === 'lease.revoked' ? revoked.data.session_ids : [],
          // HAI-MCP marks a break-glass change in its audit, and says so in the answer
          audit_classification: mode === 'break_glass' ? ('break_glass' as const) : null,
        };
      },
    );
    const out = await gated.catch((error: unknown) => {
      if (!isDomainError(error) || error.code !== 'owner_gate_required') throw error;
      throw domainError(error.code, error.message, {
        ...error.details,
        diff: withOldNew(diff),
        mode,
      });
    });
    return { project, ...out };
  };

  return { recontract };
};
