import { z } from 'zod';
import { defineEvent } from '../catalog/define.js';
import { Role } from '../project/index.js';

/**
 * The governance context (contracts/governance.md): work packages, their reviews, links and
 * gate on the work package's own stream; decisions, escalations and baselines on theirs.
 * Every payload names its project and aggregate, so a `sync_since` consumer needs nothing else.
 */
export const WorkPackageStatus = z.enum(['OPEN', 'CLAIMED', 'SUBMITTED', 'ACCEPTED', 'REJECTED']);
export type WorkPackageStatus = z.infer<typeof WorkPackageStatus>;

export const Verdict = z.enum(['APPROVE', 'REQUEST_CHANGES', 'REJECT']);
export type Verdict = z.infer<typeof Verdict>;

export const GateOutcome = z.enum(['ACCEPT', 'REJECT', 'REWORK']);
export type GateOutcome = z.infer<typeof GateOutcome>;

export const DecisionKind = z.enum(['product', 'technical', 'architecture', 'process']);
export type DecisionKind = z.infer<typeof DecisionKind>;

export const EscalationTarget = Role.extract(['PO', 'PM']);
export type EscalationTarget = z.infer<typeof EscalationTarget>;

const onPackage = { project_id: z.string(), work_package_id: z.string() };

export const WorkPackageIssued = defineEvent(
  'work_package.issued',
  z.object({
    ...onPackage,
    title: z.string(),
    description: z.string().nullable(),
    acceptance_criteria: z.array(z.string()),
    issued_by: z.string(),
  }),
);
export const WorkPackageClaimed = defineEvent(
  'work_package.claimed',
  z.object({ ...onPackage, claimed_by: z.string() }),
);
/** `result_number` counts results from 1: a review or gate names the result it judged. */
export const WorkPackageResultSubmitted = defineEvent(
  'work_package.result_submitted',
  z.object({
    ...onPackage,
    result_number: z.number().int().positive(),
    summary: z.string(),
    submitted_by: z.string(),
  }),
);
export const ReviewRequested = defineEvent(
  'review.requested',
  z.object({
    ...onPackage,
    review_id: z.string(),
    reviewer_id: z.string(),
    requested_by: z.string(),
  }),
);
/** `result_number`: the latest result when the verdict was given (0 when there was none). */
export const ReviewSubmitted = defineEvent(
  'review.submitted',
  z.object({
    ...onPackage,
    review_id: z.string(),
    reviewer_id: z.string(),
    verdict: Verdict,
    notes: z.string().nullable(),
    result_number: z.number().int().nonnegative(),
  }),
);
export const CommitLinked = defineEvent(
  'commit.linked',
  z.object({
    ...onPackage,
    commit_id: z.string(),
    repository: z.string().nullable(),
    linked_by: z.string(),
  }),
);
export const ArtifactLinked = defineEvent(
  'artifact.linked',
  z.object({ ...onPackage, uri: z.string(), title: z.string().nullable(), linked_by: z.string() }),
);
/**
 * `status` is where the package went (REWORK → CLAIMED, back to `claimed_by`);
 * `approving_review_id` is the approval an ACCEPT rested on.
 */
export const GateClosed = defineEvent(
  'gate.closed',
  z.object({
    ...onPackage,
    outcome: GateOutcome,
    reason: z.string().nullable(),
    status: WorkPackageStatus,
    claimed_by: z.string().nullable(),
    result_number: z.number().int().nonnegative(),
    approving_review_id: z.string().nullable(),
    closed_by: z.string(),
  }),
);
export const DecisionRecorded = defineEvent(
  'decision.recorded',
  z.object({
    project_id: z.string(),
    decision_id: z.string(),
    kind: DecisionKind,
    title: z.string(),
    rationale: z.string(),
    work_package_id: z.string().nullable(),
    recorded_by: z.string(),
  }),
);
export const EscalationRaised = defineEvent(
  'escalation.raised',
  z.object({
    project_id: z.string(),
    escalation_id: z.string(),
    subject: z.string(),
    details: z.string(),
    target_role: EscalationTarget.nullable(),
    work_package_id: z.string().nullable(),
    raised_by: z.string(),
  }),
);
export const EscalationResolved = defineEvent(
  'escalation.resolved',
  z.object({
    project_id: z.string(),
    escalation_id: z.string(),
    resolution: z.string(),
    target_role: EscalationTarget.nullable(),
    work_package_id: z.string().nullable(),
    resolved_by: z.string(),
  }),
);
export const BaselineReleased = defineEvent(
  'baseline.released',
  z.object({
    project_id: z.string(),
    baseline_id: z.string(),
    work_package_ids: z.array(z.string()),
    notes: z.string().nullable(),
    released_by: z.string(),
  }),
);

export const governanceEvents = [
  WorkPackageIssued,
  WorkPackageClaimed,
  WorkPackageResultSubmitted,
  ReviewRequested,
  ReviewSubmitted,
  CommitLinked,
  ArtifactLinked,
  GateClosed,
  DecisionRecorded,
  EscalationRaised,
  EscalationResolved,
  BaselineReleased,
];
