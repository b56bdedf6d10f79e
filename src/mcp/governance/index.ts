import { z } from 'zod';
import { Id } from '../../commands/ids.js';
import {
  DecisionKind,
  EscalationTarget,
  GateOutcome,
  Verdict,
} from '../../events/governance/index.js';
import { Role } from '../../events/project/index.js';
import type { AnyTool, Surface } from '../tool.js';
import { mutation, query } from './define.js';
import * as S from './schemas.js';
import { governance } from '../../app/governance/index.js';

/**
 * The governance surface (contracts/governance.md): 18 tools, each a row of this table; each
 * mutation maps onto one command of `governance(app)`, each query onto one read.
 */

type Package = z.infer<typeof S.WorkPackage>;
const packageLine = (p: Package) =>
  `work package ${p.work_package_id} is ${p.status}` +
  (p.claimed_by && p.status !== 'OPEN' ? ` (claimed by ${p.claimed_by})` : '');

const projectTools: AnyTool[] = [
  mutation({
    name: 'create_project',
    title: 'Create a project',
    description:
      'Creates a governed project. Only the SYSTEM principal may (an operator token); ' +
      'then register its actors with register_actor.',
    args: {
      name: S.text(200, 'display name'),
      description: S.optionalText(4000, 'what the project is'),
    },
    output: S.Project,
    run: (app, args, call) => governance(app).createProject(args, call),
    summary: (p) => `project ${p.project_id} created`,
  }),
  mutation({
    name: 'register_actor',
    title: 'Register an actor',
    description:
      'Gives an actor a role in the project (or changes its role). Allowed to SYSTEM, PO and PM; ' +
      'a PM cannot appoint (or change) a PO. Roles: PO, PM, PA, ARCHITECT, LEAD_ENGINEER, ' +
      'IMPLEMENTER, REVIEWER.',
    args: {
      actor_id: Id.describe('the actor (the id its bearer token names)'),
      role: Role,
      display_name: S.optionalText(200, 'how to call the actor'),
    },
    output: S.Member,
    destructive: true,
    run: (app, args, call) => governance(app).registerActor(args, call),
    summary: (m) => `${m.actor_id} is ${m.role} in ${m.project_id}`,
  }),
  query({
    name: 'get_project',
    title: 'Get a project',
    description: 'Returns the project and its roster: every actor with its role.',
    args: {},
    output: S.ProjectWithRoster,
    run: (app, args, who) => governance(app).getProject(args, who),
    summary: (p) => `project ${p.project_id}: ${p.roster.length} actors`,
  }),
];

const workTools: AnyTool[] = [
  mutation({
    name: 'issue_work_package',
    title: 'Issue a work package',
    description:
      'PO or PM: issues a work package, OPEN for claiming. The id is yours to choose (e.g. WP-001).',
    args: {
      work_package_id: S.WorkPackageId,
      title: S.text(200, 'what is to be done, in a line'),
      description: S.optionalText(20_000, 'the details'),
      acceptance_criteria: z
        .array(z.string().min(1).max(2000))
        .max(100)
        .optional()
        .describe('how the result will be judged'),
    },
    output: S.WorkPackage,
    run: (app, args, call) => governance(app).issueWorkPackage(args, call),
    summary: packageLine,
  }),
  mutation({
    name: 'claim_work_package',
    title: 'Claim a work package',
    description:
      'ARCHITECT, LEAD_ENGINEER or IMPLEMENTER: claims an OPEN work package. Atomic: of many ' +
      'racing claims exactly one wins; the others get invalid_state.',
    args: { work_package_id: S.WorkPackageId },
    output: S.WorkPackage,
    run: (app, args, call) => governance(app).claimWorkPackage(args, call),
    summary: packageLine,
  }),
  mutation({
    name: 'submit_result',
    title: 'Submit a result',
    description:
      'The claiming actor only: submits the result of a CLAIMED package, which goes to SUBMITTED ' +
      'and waits for reviews and the gate.',
    args: { work_package_id: S.WorkPackageId, summary: S.text(20_000, 'what was done') },
    output: S.WorkPackage,
    run: (app, args, call) => governance(app).submitResult(args, call),
    summary: packageLine,
  }),
  mutation({
    name: 'close_gate',
    title: 'Close the gate',
    description:
      'PO or PM: decides a SUBMITTED package. ACCEPT needs an APPROVE by an independent reviewer ' +
      'given after the latest result; REWORK sends it back to its claimant; REJECT ends it (also ' +
      'an OPEN or CLAIMED one). ACCEPTED and REJECTED are final.',
    args: {
      work_package_id: S.WorkPackageId,
      outcome: GateOutcome,
      reason: S.optionalText(4000, 'why'),
    },
    output: S.WorkPackage,
    destructive: true,
    run: (app, args, call) => governance(app).closeGate(args, call),
    summary: packageLine,
  }),
  query({
    name: 'get_work_package',
    title: 'Get a work package',
    description:
      'Returns a work package: status, claimed_by, the latest result, reviews, linked commits ' +
      'and artifacts, the gate, and when each happened.',
    args: { work_package_id: S.WorkPackageId },
    output: S.WorkPackageView,
    run: (app, args, who) => governance(app).getWorkPackage(args, who),
    summary: packageLine,
  }),
];

const reviewTools: AnyTool[] = [
  mutation({
    name: 'request_review',
    title: 'Request a review',
    description:
      'PO, PM, PA, ARCHITECT, LEAD_ENGINEER or IMPLEMENTER: asks a member to review a CLAIMED or ' +
      'SUBMITTED package. The reviewer must be independent: not the claimant, not a submitter, ' +
      'not you. Returns the review_id the reviewer answers with submit_review.',
    args: { work_package_id: S.WorkPackageId, reviewer_id: Id.describe('the reviewing actor') },
    output: z.object({ review_id: z.string(), review: S.ReviewInProject }),
    run: (app, args, call) => governance(app).requestReview(args, call),
    summary: (r) => `review ${r.review_id} requested from ${r.review.reviewer_id}`,
  }),
  mutation({
    name: 'submit_review',
    title: 'Submit a review',
    description:
      'The assigned reviewer only: gives the review its verdict (once). An APPROVE counts for the ' +
      'gate when given after the latest result.',
    args: {
      review_id: Id.describe('from request_review or list_pending_actions'),
      verdict: Verdict,
      notes: S.optionalText(20_000, 'findings'),
    },
    output: S.ReviewInProject,
    run: (app, args, call) => governance(app).submitReview(args, call),
    summary: (r) => `review ${r.review_id}: ${r.verdict}`,
  }),
];

const recordTools: AnyTool[] = [
  mutation({
    name: 'record_decision',
    title: 'Record a decision',
    description:
      'Records a decision. kind product: PO only; technical, architecture, process: PO or PM. ' +
      'Never PA. Optionally about a work package.',
    args: {
      kind: DecisionKind,
      title: S.text(200, 'the decision, in a line'),
      rationale: S.text(20_000, 'why'),
      work_package_id: S.WorkPackageId.optional(),
    },
    output: S.Decision,
    run: (app, args, call) => governance(app).recordDecision(args, call),
    summary: (d) => `decision ${d.decision_id} recorded`,
  }),
  mutation({
    name: 'raise_escalation',
    title: 'Raise an escalation',
    description:
      'Any member: raises an escalation to the PO or PM (target_role; both when omitted), ' +
      'optionally about a work package. It shows in their list_pending_actions until resolved.',
    args: {
      subject: S.text(200, 'the problem, in a line'),
      details: S.text(20_000, 'what is needed'),
      target_role: EscalationTarget.optional(),
      work_package_id: S.WorkPackageId.optional(),
    },
    output: S.Escalation,
    run: (app, args, call) => governance(app).raiseEscalation(args, call),
    summary: (e) => `escalation ${e.escalation_id} raised`,
  }),
  mutation({
    name: 'resolve_escalation',
    title: 'Resolve an escalation',
    description: 'PO or PM: resolves an open escalation.',
    args: { escalation_id: Id, resolution: S.text(20_000, 'how it was resolved') },
    output: S.Escalation,
    run: (app, args, call) => governance(app).resolveEscalation(args, call),
    summary: (e) => `escalation ${e.escalation_id} ${e.status}`,
  }),
  mutation({
    name: 'link_commit',
    title: 'Link a commit',
    description: 'Any member: links a git commit to a work package.',
    args: {
      work_package_id: S.WorkPackageId,
      commit_id: z.string().min(1).max(200).describe('a git object id: 4 to 64 hexadecimal digits'),
      repository: S.optionalText(2000, 'where the commit lives'),
    },
    output: S.LinkedCommit,
    run: (app, args, call) => governance(app).linkCommit(args, call),
    summary: (l) => `commit ${l.commit_id} linked to ${l.work_package_id}`,
  }),
  mutation({
    name: 'link_artifact',
    title: 'Link an artifact',
    description: 'Any member: links an artifact (an absolute URI) to a work package.',
    args: {
      work_package_id: S.WorkPackageId,
      uri: z.string().min(1).max(4000).describe('absolute URI, such as https://…'),
      title: S.optionalText(200, 'what it is'),
    },
    output: S.LinkedArtifact,
    run: (app, args, call) => governance(app).linkArtifact(args, call),
    summary: (l) => `artifact linked to ${l.work_package_id}`,
  }),
  mutation({
    name: 'baseline_release',
    title: 'Release a baseline',
    description:
      'PO or PM: releases a baseline of work packages, every one of them ACCEPTED. A baseline id ' +
      'is released once.',
    args: {
      baseline_id: Id.describe('e.g. v1.0'),
      work_package_ids: z.array(S.WorkPackageId).min(1).max(500),
      notes: S.optionalText(20_000, 'release notes'),
    },
    output: S.Baseline,
    run: (app, args, call) => governance(app).releaseBaseline(args, call),
    summary: (b) => `baseline ${b.baseline_id}: ${b.work_package_ids.length} packages`,
  }),
];

const feedTools: AnyTool[] = [
  query({
    name: 'sync_since',
    title: 'Sync events since a cursor',
    description:
      "Returns the project's events after `cursor` in order, with next_cursor and has_more. " +
      'Paging on with next_cursor sees every event exactly once.',
    args: {
      cursor: z.number().int().min(0).describe('the last cursor you have seen; 0 for all'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(500)
        .optional()
        .describe('at most this many (default and most: 500)'),
    },
    output: S.SyncPage,
    run: (app, args, who) => governance(app).syncSince(args, who),
    summary: (p) => `${p.events.length} events, next_cursor ${p.next_cursor}`,
  }),
  query({
    name: 'list_pending_actions',
    title: 'List my pending actions',
    description:
      'What you should do next, by your role: reviews assigned to you, your claimed work awaiting ' +
      'a result, and for PO/PM results awaiting the gate and escalations for your role.',
    args: {},
    output: S.PendingActions,
    run: (app, args, who) => governance(app).listPendingActions(args, who),
    summary: (p) => `${p.actions.length} pending actions for ${p.actor_id}`,
  }),
];

export const governanceSurface: Surface = {
  name: 'governance',
  title: 'Work governance',
  instructions:
    'Governance: projects with actors in roles (PO, PM, PA, ARCHITECT, LEAD_ENGINEER, ' +
    'IMPLEMENTER, REVIEWER); work packages are issued, claimed, submitted, independently ' +
    'reviewed and gated; decisions, escalations and baselines are recorded. Start with ' +
    'list_pending_actions. Every change takes an idempotency_key: the same key with the same ' +
    'arguments replays the first answer and appends nothing; with other arguments it is a ' +
    'conflict. A failure is ok:false with error {code, message, details}, ' +
    'code one of forbidden, not_found, invalid_argument, invalid_state, conflict.',
  tiers: ['all'],
  defaultTier: 'all',
  tools: [...projectTools, ...workTools, ...reviewTools, ...recordTools, ...feedTools],
};
