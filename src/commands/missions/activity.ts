import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/catalog/define.js';
import type {
  ActivityChecked,
  ContractBody,
  DriftClass,
  RequiredAction,
} from '../../events/missions/index.js';
import { streamName } from '../../events/stream-name.js';
import type { Lease } from './desk-state.js';

/**
 * `hai_check_activity`: classify what a leased session does against its contract, and keep an
 * audit record on the session's own stream (so sixteen sessions checking at once never contend
 * on the project's stream). The lease is validated against the desk before the check.
 */

export const REQUIRED_ACTION: Record<DriftClass, RequiredAction> = {
  in_scope: 'continue',
  blocker: 'pause',
  park_candidate: 'park',
  drift: 'stop',
  unclear: 'pause',
};

/**
 * Actions a contract never implies: they need the capability granted to the lease. HAI-MCP's
 * list (commit, push, deploy, delete, secrets, force_push, rm_rf) and ours (merge, release).
 */
export const SENSITIVE_KINDS = [
  'commit',
  'push',
  'merge',
  'delete',
  'deploy',
  'release',
  'secrets',
  'force_push',
  'rm_rf',
];

/**
 * An affected path, resolved by the service against the project root; `invalid` when it cannot
 * name a file at all (a NUL byte: its `path` shows the byte as `\0`).
 */
export type AffectedPath = { path: string; inside_root: boolean; invalid?: 'nul' };

export type Activity = {
  activity_step: string;
  criterion_id: string | null;
  affected_paths: AffectedPath[];
  activity_kind: string | null;
  /** the actions of HAI-MCP's trace_events, each checked as a kind (not recorded) */
  trace_actions?: string[];
  declares_blocker: boolean;
};

const allowed = (path: string, prefixes: readonly string[]): boolean =>
  prefixes.length === 0 ||
  prefixes.some((p) => {
    const prefix = p.replace(/\/+$/, '');
    return prefix === '' || prefix === '.' || path === prefix || path.startsWith(`${prefix}/`);
  });

const driftReasons = (contract: ContractBody, lease: Lease, a: Activity): string[] => {
  const reasons = a.affected_paths.flatMap((p) =>
    p.invalid
      ? [`path_invalid: NUL byte in ${p.path}`]
      : !p.inside_root
        ? [`path_outside_root: ${p.path}`]
        : !allowed(p.path, contract.constraints.allowed_paths)
          ? [`path_not_allowed: ${p.path}`]
          : [],
  );
  const kinds = [a.activity_kind, ...(a.trace_actions ?? [])].flatMap((k) =>
    k ? [k.toLowerCase()] : [],
  );
  for (const kind of new Set(kinds))
    if (SENSITIVE_KINDS.includes(kind) && !lease.capabilities.includes(kind))
      reasons.push(`sensitive_action_not_granted: ${kind}`);
  return reasons;
};

const nonGoalHit = (contract: ContractBody, a: Activity): string | undefined => {
  const step = a.activity_step.toLowerCase();
  return contract.non_goals.find((g) => g.trim() !== '' && step.includes(g.trim().toLowerCase()));
};

/** Drift outranks everything: a declared blocker never hides a path outside the contract. */
export const classifyActivity = (
  contract: ContractBody,
  lease: Lease,
  a: Activity,
): { classification: DriftClass; reasons: string[] } => {
  const drift = driftReasons(contract, lease, a);
  if (drift.length > 0) return { classification: 'drift', reasons: drift };
  const nonGoal = nonGoalHit(contract, a);
  if (nonGoal)
    return { classification: 'park_candidate', reasons: [`matches_non_goal: ${nonGoal}`] };
  if (a.declares_blocker) return { classification: 'blocker', reasons: ['declared_blocker'] };
  if (a.criterion_id === null) return { classification: 'unclear', reasons: ['no_criterion'] };
  if (!lease.criterion_ids.includes(a.criterion_id))
    return { classification: 'unclear', reasons: [`criterion_not_leased: ${a.criterion_id}`] };
  return { classification: 'in_scope', reasons: [] };
};

export type ActivityEvent = EventOf<typeof ActivityChecked>;
export type CheckActivity = {
  type: 'CheckActivity';
  data: Activity & { project_id: string; lease: Lease; contract: ContractBody; now: string };
};

export const sessionStream = (projectId: string, sessionId: string): string =>
  streamName({ aggregateType: 'mission_session', projectId, aggregateId: sessionId });

/** The audit record of one check (the session stream's decide). */
export const decideCheck = ({ data }: CheckActivity): ActivityEvent[] => {
  const { classification, reasons } = classifyActivity(data.contract, data.lease, data);
  const checked = {
    project_id: data.project_id,
    mission_id: data.lease.mission_id,
    session_id: data.lease.session_id,
    contract_version: data.lease.contract_version,
    activity_step: data.activity_step,
    criterion_id: data.criterion_id,
    affected_paths: data.affected_paths.map((p) => p.path),
    activity_kind: data.activity_kind,
    classification,
    required_action: REQUIRED_ACTION[classification],
    reasons,
    checked_at: data.now,
  };
  return [{ type: 'activity.checked', data: checked }];
};

/** The session stream's state is only how many checks it holds: the desk holds the lease. */
export const sessionDecider: Decider<number, CheckActivity, ActivityEvent> = {
  decide: decideCheck,
  evolve: (count) => count + 1,
  initialState: () => 0,
};
