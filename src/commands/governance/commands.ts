import { newId, type EventLog } from '../../events/index.js';
import type {
  DecisionKind,
  EscalationTarget,
  WorkPackageStatus,
} from '../../events/governance/index.js';
import { resolveCaller } from './access.js';
import { baselineDecider, type Baseline } from './baseline.js';
import { decisionDecider, type Decision } from './decision.js';
import { escalationDecider, type Escalation } from './escalation.js';
import { runGovernance, type GovernanceCall } from './run.js';
import { GovernanceStreams } from './streams.js';
import { workPackageDecider } from './work-package.js';
import { workPackageCommands, type GovernanceLookups } from './work-package-commands.js';

type Args = Record<string, unknown> & { project_id: string };

const decisionResult = (state: Decision) => {
  if (!state.recorded) throw new Error('decision not recorded');
  const { recorded: _r, ...decision } = state;
  return decision;
};
const escalationResult = ({ status, ...rest }: Escalation) => ({ ...rest, status });
const baselineResult = (state: Baseline) => {
  if (!state.released) throw new Error('baseline not released');
  const { released: _r, ...baseline } = state;
  return baseline;
};

/** The governance context's write side (contracts/governance.md), as every surface uses it. */
export const governanceCommands = (log: EventLog, lookups: GovernanceLookups) => {
  /** A package's status from its own stream; null when it does not exist. */
  const statusOf = async (projectId: string, id: string): Promise<WorkPackageStatus | null> => {
    const { state } = await log.aggregateStream(GovernanceStreams.workPackage(projectId, id), {
      evolve: workPackageDecider.evolve,
      initialState: workPackageDecider.initialState,
    });
    return state.status === 'NONE' ? null : state.status;
  };
  const exists = async (projectId: string, id: string | undefined) =>
    id !== undefined && (await statusOf(projectId, id)) !== null;

  return {
    ...workPackageCommands(log, lookups),

    async recordDecision(
      args: Args & {
        kind: DecisionKind;
        title: string;
        rationale: string;
        work_package_id?: string;
      },
      call: GovernanceCall,
    ) {
      const { caller } = await resolveCaller(log, args.project_id, call.principal);
      const decision_id = newId('dec');
      const work_package_id = args.work_package_id ?? null;
      const data = {
        by: caller,
        project_id: args.project_id,
        decision_id,
        kind: args.kind,
        title: args.title,
        rationale: args.rationale,
        work_package_id,
        work_package_found: await exists(args.project_id, args.work_package_id),
      };
      return runGovernance(log, call, {
        decider: decisionDecider,
        stream: GovernanceStreams.decision(args.project_id, decision_id),
        projectId: args.project_id,
        caller,
        command: { type: 'RecordDecision', data },
        operation: 'record_decision',
        args,
        correlationId: work_package_id,
        respond: decisionResult,
      });
    },

    async raiseEscalation(
      args: Args & {
        subject: string;
        details: string;
        target_role?: EscalationTarget;
        work_package_id?: string;
      },
      call: GovernanceCall,
    ) {
      const { caller } = await resolveCaller(log, args.project_id, call.principal);
      const escalation_id = newId('esc');
      const work_package_id = args.work_package_id ?? null;
      const data = {
        by: caller,
        project_id: args.project_id,
        escalation_id,
        subject: args.subject,
        details: args.details,
        target_role: args.target_role ?? null,
        work_package_id,
        work_package_found: await exists(args.project_id, args.work_package_id),
      };
      return runGovernance(log, call, {
        decider: escalationDecider,
        stream: GovernanceStreams.escalation(args.project_id, escalation_id),
        projectId: args.project_id,
        caller,
        command: { type: 'RaiseEscalation', data },
        operation: 'raise_escalation',
        args,
        correlationId: work_package_id,
        respond: escalationResult,
      });
    },

    async resolveEscalation(
      args: Args & { escalation_id: string; resolution: string },
      call: GovernanceCall,
    ) {
      const { caller } = await resolveCaller(log, args.project_id, call.principal);
      const stream = GovernanceStreams.escalation(args.project_id, args.escalation_id);
      const { state } = await log.aggregateStream(stream, escalationDecider);
      return runGovernance(log, call, {
        decider: escalationDecider,
        stream,
        projectId: args.project_id,
        caller,
        command: { type: 'ResolveEscalation', data: { by: caller, resolution: args.resolution } },
        operation: 'resolve_escalation',
        args,
        correlationId: state.work_package_id,
        respond: escalationResult,
      });
    },

    async releaseBaseline(
      args: Args & { baseline_id: string; work_package_ids: string[]; notes?: string },
      call: GovernanceCall,
    ) {
      const { caller } = await resolveCaller(log, args.project_id, call.principal);
      const ids = [...new Set(args.work_package_ids)];
      const statuses = Object.fromEntries(
        await Promise.all(ids.map(async (id) => [id, await statusOf(args.project_id, id)])),
      ) as Record<string, WorkPackageStatus | null>;
      const data = {
        by: caller,
        project_id: args.project_id,
        baseline_id: args.baseline_id,
        work_package_ids: ids,
        notes: args.notes ?? null,
        statuses,
      };
      return runGovernance(log, call, {
        decider: baselineDecider,
        stream: GovernanceStreams.baseline(args.project_id, args.baseline_id),
        projectId: args.project_id,
        caller,
        command: { type: 'ReleaseBaseline', data },
        operation: 'baseline_release',
        args,
        correlationId: null,
        respond: baselineResult,
      });
    },
  };
};

export type GovernanceCommands = ReturnType<typeof governanceCommands>;
