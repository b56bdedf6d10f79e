import { z } from 'zod';
import { defineEvent } from '../catalog/define.js';
import { learningEvents } from './learning.js';

/**
 * The missions context (contracts/missions.md): missions with finite, versioned contracts,
 * session leases, focus lanes, next-step proposals behind the owner gate, parking, intake,
 * checkpoints and day stops. Everything one project's invariants need (one active mission,
 * lease capacity, at most two ACTIVE lanes, single-use owner codes) is on the project's one
 * missions stream; activity checks, the most frequent call, go to a stream per session.
 */

export const Criterion = z.object({ id: z.string(), description: z.string() });
export type Criterion = z.infer<typeof Criterion>;

export const Constraints = z.object({
  project_path: z.string().nullable(),
  project_id: z.string().nullable(),
  allowed_paths: z.array(z.string()),
  capabilities: z.array(z.string()),
  max_parallel_sessions: z.number().int().positive(),
  time_limit_hours: z.number().positive().nullable(),
});
export type Constraints = z.infer<typeof Constraints>;

/** The canonical contract body: what `contract_hash` covers and `hai_get_contract` returns. */
export const ContractBody = z.object({
  objective: z.string(),
  artifact: z.string(),
  done_criteria: z.array(Criterion),
  non_goals: z.array(z.string()),
  constraints: Constraints,
  owner: z.string(),
});
export type ContractBody = z.infer<typeof ContractBody>;

export const FieldChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type FieldChange = z.infer<typeof FieldChange>;

export const GateMode = z.enum(['nonce', 'ack_legacy']);
export type GateMode = z.infer<typeof GateMode>;

/** How an owner-gated change was let through: the mode, and the challenge a code answered. */
export const GatePassed = z.object({
  mode: GateMode,
  challenge_id: z.string().nullable(),
  reason: z.string().nullable(),
});
export type GatePassed = z.infer<typeof GatePassed>;

export const Closure = z.enum(['completed', 'abandoned']);
export type Closure = z.infer<typeof Closure>;

export const EvidenceItem = z.object({ paths: z.array(z.string()), note: z.string().nullable() });
export type EvidenceItem = z.infer<typeof EvidenceItem>;

export const DriftClass = z.enum(['in_scope', 'blocker', 'park_candidate', 'drift', 'unclear']);
export type DriftClass = z.infer<typeof DriftClass>;
export const RequiredAction = z.enum(['continue', 'pause', 'park', 'stop']);
export type RequiredAction = z.infer<typeof RequiredAction>;

export const LaneStatus = z.enum(['ACTIVE', 'PAUSED', 'DONE']);
export type LaneStatus = z.infer<typeof LaneStatus>;

export const RevokeReason = z.enum(['recontract', 'close', 'stop']);

const onProject = { project_id: z.string() };
const at = z.string();

export const MissionOpened = defineEvent(
  'mission.opened',
  z.object({
    ...onProject,
    mission_id: z.string(),
    contract_version: z.literal(1),
    contract: ContractBody,
    contract_hash: z.string(),
    opened_at: at,
  }),
);
export const MissionRecontracted = defineEvent(
  'mission.recontracted',
  z.object({
    ...onProject,
    mission_id: z.string(),
    from_version: z.number().int().positive(),
    contract_version: z.number().int().positive(),
    contract: ContractBody,
    contract_hash: z.string(),
    diff: z.array(FieldChange),
    reason: z.string(),
    mode: z.enum(['normal', 'break_glass']),
    gate: GatePassed,
    recontracted_at: at,
  }),
);
export const MissionClosed = defineEvent(
  'mission.closed',
  z.object({
    ...onProject,
    mission_id: z.string(),
    contract_version: z.number().int().positive(),
    closure: Closure,
    outcome_summary: z.string(),
    evidence: z.record(z.string(), EvidenceItem),
    gate: GatePassed.nullable(),
    closed_at: at,
  }),
);
export const LeaseGranted = defineEvent(
  'lease.granted',
  z.object({
    ...onProject,
    mission_id: z.string(),
    session_id: z.string(),
    contract_version: z.number().int().positive(),
    agent_identity: z.string(),
    role: z.string(),
    contribution: z.string(),
    expected_result: z.string(),
    criterion_ids: z.array(z.string()),
    capabilities: z.array(z.string()),
    device_id: z.string().nullable(),
    harness_id: z.string().nullable(),
    granted_at: at,
    expires_at: at,
  }),
);
export const LeasesRevoked = defineEvent(
  'lease.revoked',
  z.object({ ...onProject, session_ids: z.array(z.string()), reason: RevokeReason }),
);
export const ProjectMounted = defineEvent(
  'mission_project.mounted',
  z.object({
    ...onProject,
    device_id: z.string(),
    local_path: z.string(),
    root_hash: z.string(),
    /** a directory used by path before any bind: any bind may claim it */
    implicit: z.boolean(),
    reason: z.string(),
  }),
);
export const NextStepProposed = defineEvent(
  'next_step.proposed',
  z.object({ ...onProject, content: z.string(), content_hash: z.string(), proposed_at: at }),
);
export const NextStepAccepted = defineEvent(
  'next_step.accepted',
  z.object({
    ...onProject,
    content: z.string(),
    content_hash: z.string(),
    gate: GatePassed,
    accepted_at: at,
  }),
);
export const OwnerChallengeIssued = defineEvent(
  'owner_challenge.issued',
  z.object({
    ...onProject,
    challenge_id: z.string(),
    operation: z.string(),
    fingerprint: z.string(),
    code_salt: z.string(),
    code_hash: z.string(),
    channel: z.string(),
    expires_at: at,
  }),
);
export const OwnerCodeRejected = defineEvent(
  'owner_challenge.code_rejected',
  z.object({
    ...onProject,
    challenge_id: z.string(),
    attempts_remaining: z.number().int().nonnegative(),
  }),
);
export const OwnerChallengeCancelled = defineEvent(
  'owner_challenge.cancelled',
  z.object({ ...onProject, challenge_id: z.string(), reason: z.enum(['attempts_exhausted']) }),
);
export const OwnerChallengeConsumed = defineEvent(
  'owner_challenge.consumed',
  z.object({ ...onProject, challenge_id: z.string() }),
);
export const FocusSet = defineEvent(
  'focus_lane.set',
  z.object({
    ...onProject,
    focus_id: z.string(),
    label: z.string().nullable(),
    status: LaneStatus,
  }),
);
export const InboxParked = defineEvent(
  'inbox_item.parked',
  z.object({
    ...onProject,
    item_id: z.string(),
    text: z.string(),
    tags: z.array(z.string()),
    source: z.string().nullable(),
    parked_at: at,
  }),
);
export const MissionItemParked = defineEvent(
  'mission_item.parked',
  z.object({
    ...onProject,
    item_id: z.string(),
    mission_id: z.string(),
    idea: z.string(),
    origin_session_id: z.string(),
    trigger_event: z.string(),
    rationale: z.string(),
    parked_at: at,
  }),
);
export const IntakeCaptured = defineEvent(
  'intake.captured',
  z.object({ ...onProject, intake_id: z.string(), raw: z.string(), captured_at: at }),
);
export const IntakeDistilled = defineEvent(
  'intake.distilled',
  z.object({
    ...onProject,
    intake_id: z.string(),
    decision: z.string(),
    next_step: z.string(),
    parked_item_ids: z.array(z.string()),
  }),
);
export const CheckpointRecorded = defineEvent(
  'mission_checkpoint.recorded',
  z.object({
    ...onProject,
    checkpoint_id: z.string(),
    note: z.string().nullable(),
    focus_id: z.string().nullable(),
    active_lanes: z.array(z.string()),
    mission_id: z.string().nullable(),
    contract_version: z.number().int().nullable(),
    next_step: z.string().nullable(),
    recorded_at: at,
  }),
);
export const DayStopped = defineEvent(
  'day.stopped',
  z.object({
    ...onProject,
    day: z.string(),
    loop_closed: z.boolean(),
    clearer: z.string(),
    agency_gained: z.string(),
    manual_practice: z.array(z.string()),
    stopped_at: at,
  }),
);
/** On the session's own stream: an audit record of one `hai_check_activity` answer. */
export const ActivityChecked = defineEvent(
  'activity.checked',
  z.object({
    ...onProject,
    mission_id: z.string(),
    session_id: z.string(),
    contract_version: z.number().int().positive(),
    activity_step: z.string(),
    criterion_id: z.string().nullable(),
    affected_paths: z.array(z.string()),
    activity_kind: z.string().nullable(),
    classification: DriftClass,
    required_action: RequiredAction,
    reasons: z.array(z.string()),
    checked_at: at,
  }),
);

/** The events of the project's missions stream (the desk). */
export const deskEvents = [
  MissionOpened,
  MissionRecontracted,
  MissionClosed,
  LeaseGranted,
  LeasesRevoked,
  ProjectMounted,
  NextStepProposed,
  NextStepAccepted,
  OwnerChallengeIssued,
  OwnerCodeRejected,
  OwnerChallengeCancelled,
  OwnerChallengeConsumed,
  FocusSet,
  InboxParked,
  MissionItemParked,
  IntakeCaptured,
  IntakeDistilled,
  CheckpointRecorded,
  DayStopped,
  ...learningEvents,
] as const;

export const missionsEvents = [...deskEvents, ActivityChecked] as const;
