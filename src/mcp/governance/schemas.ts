import { z } from 'zod';
import { Id } from '../../commands/ids.js';
import {
  DecisionKind,
  EscalationTarget,
  GateOutcome,
  Verdict,
  WorkPackageStatus,
} from '../../events/governance/index.js';
import { Role } from '../../events/project/index.js';
import { SyncEnvelope } from '../../events/envelope.js';

/** Argument and result schemas of the governance surface (contracts/governance.md). */

export const ProjectId = Id.describe('the project, by id');
export const WorkPackageId = Id.describe('the work package, by id');
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(128)
  .describe('your key for this change: a repeat replays its first answer');
const text = (max: number, what: string) => z.string().min(1).max(max).describe(what);
export const optionalText = (max: number, what: string) =>
  z.string().max(max).optional().describe(what);

const at = z.string().describe('UTC ISO-8601 time');
const nullableAt = at.nullable();

export const Project = z.object({
  project_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
});
export const Member = z.object({
  project_id: z.string(),
  actor_id: z.string(),
  role: Role,
  display_name: z.string().nullable(),
});
export const ProjectWithRoster = Project.extend({
  created_at: at,
  created_by: z.string(),
  roster: z.array(
    z.object({
      actor_id: z.string(),
      role: Role,
      display_name: z.string().nullable(),
      registered_at: at,
    }),
  ),
});

export const Review = z.object({
  review_id: z.string(),
  work_package_id: z.string(),
  reviewer_id: z.string(),
  requested_by: z.string(),
  status: z.enum(['PENDING', 'SUBMITTED']),
  verdict: Verdict.nullable(),
  notes: z.string().nullable(),
  result_number: z
    .number()
    .int()
    .nullable()
    .describe('the latest result when the verdict was given; an ACCEPT needs the current one'),
});
export const ReviewInProject = Review.extend({ project_id: z.string() });

const Result = z.object({
  result_number: z.number().int().describe('1 for the first result, +1 after each REWORK'),
  summary: z.string(),
  submitted_by: z.string(),
});
const CommitLink = z.object({
  commit_id: z.string(),
  repository: z.string().nullable(),
  linked_by: z.string(),
});
const ArtifactLink = z.object({
  uri: z.string(),
  title: z.string().nullable(),
  linked_by: z.string(),
});
const Gate = z.object({
  outcome: GateOutcome,
  reason: z.string().nullable(),
  closed_by: z.string(),
  result_number: z.number().int(),
  approving_review_id: z.string().nullable(),
});

export const WorkPackage = z.object({
  project_id: z.string(),
  work_package_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  acceptance_criteria: z.array(z.string()),
  status: WorkPackageStatus,
  issued_by: z.string(),
  claimed_by: z.string().nullable(),
  result: Result.nullable().describe('the latest result'),
  reviews: z.array(Review),
  links: z.object({ commits: z.array(CommitLink), artifacts: z.array(ArtifactLink) }),
  gate: Gate.nullable().describe('the latest gate decision'),
});

export const WorkPackageView = WorkPackage.extend({
  issued_at: at,
  claimed_at: nullableAt,
  result: Result.extend({ submitted_at: at }).nullable(),
  reviews: z.array(Review.extend({ requested_at: at, submitted_at: nullableAt })),
  links: z.object({
    commits: z.array(CommitLink.extend({ linked_at: at })),
    artifacts: z.array(ArtifactLink.extend({ linked_at: at })),
  }),
  gate: Gate.extend({ closed_at: at }).nullable(),
  baselines: z.array(z.string()).describe('baselines released with this package'),
  updated_at: at,
});

export const Decision = z.object({
  project_id: z.string(),
  decision_id: z.string(),
  kind: DecisionKind,
  title: z.string(),
  rationale: z.string(),
  work_package_id: z.string().nullable(),
  recorded_by: z.string(),
});

export const Escalation = z.object({
  project_id: z.string(),
  escalation_id: z.string(),
  subject: z.string(),
  details: z.string(),
  target_role: EscalationTarget.nullable(),
  work_package_id: z.string().nullable(),
  raised_by: z.string(),
  status: z.enum(['OPEN', 'RESOLVED']),
  resolution: z.string().nullable(),
  resolved_by: z.string().nullable(),
});

export const LinkedCommit = CommitLink.extend({
  project_id: z.string(),
  work_package_id: z.string(),
});
export const LinkedArtifact = ArtifactLink.extend({
  project_id: z.string(),
  work_package_id: z.string(),
});

export const Baseline = z.object({
  project_id: z.string(),
  baseline_id: z.string(),
  work_package_ids: z.array(z.string()),
  notes: z.string().nullable(),
  released_by: z.string(),
});

export const SyncPage = z.object({
  events: z.array(SyncEnvelope),
  next_cursor: z.number().int().describe('pass as `cursor` to read on'),
  has_more: z.boolean().describe('true: more events follow right away'),
});

export const PendingActions = z.object({
  actor_id: z.string(),
  role: z.string(),
  actions: z.array(
    z.object({
      action: z
        .enum(['submit_review', 'close_gate', 'submit_result', 'resolve_escalation'])
        .describe('the tool that does it'),
      reason: z.enum([
        'review_assigned',
        'result_awaiting_gate',
        'claimed_awaiting_result',
        'escalation_open',
      ]),
      project_id: z.string(),
      work_package_id: z.string().nullable(),
      review_id: z.string().nullable(),
      escalation_id: z.string().nullable(),
      title: z.string(),
      since: at,
      ready_to_accept: z
        .boolean()
        .nullable()
        .describe('gates: an independent APPROVE of the latest result is in'),
    }),
  ),
});

export { text };
