import type { EventOf } from '../../events/index.js';
import type { Role } from '../../events/project/index.js';
import { invalidState, notFound } from '../errors.js';
import { PersistentMap } from '../persistent-map.js';
import type { Caller } from './roles.js';
import type {
  ArtifactLinked,
  CommitLinked,
  GateClosed,
  GateOutcome,
  ReviewRequested,
  ReviewSubmitted,
  Verdict,
  WorkPackageIssued,
  WorkPackageClaimed,
  WorkPackageResultSubmitted,
  WorkPackageStatus,
} from '../../events/governance/index.js';
import { Snapshots } from '../snapshots.js';

/**
 * The work package aggregate as its stream folds it. Reviews, links and the gate live in the
 * same stream, so every rule that relates them (only the claimant submits, the reviewer is
 * independent, ACCEPT needs an approval of the latest result) is checked against one version
 * and enforced by the expected-version append.
 */
export type WorkPackageEvent =
  | EventOf<typeof WorkPackageIssued>
  | EventOf<typeof WorkPackageClaimed>
  | EventOf<typeof WorkPackageResultSubmitted>
  | EventOf<typeof ReviewRequested>
  | EventOf<typeof ReviewSubmitted>
  | EventOf<typeof CommitLinked>
  | EventOf<typeof ArtifactLinked>
  | EventOf<typeof GateClosed>;

export type ReviewState = {
  review_id: string;
  work_package_id: string;
  reviewer_id: string;
  requested_by: string;
  status: 'PENDING' | 'SUBMITTED';
  verdict: Verdict | null;
  notes: string | null;
  /** the latest result when the verdict was given */
  result_number: number | null;
};
/** A review as the state keeps it: with its place in the order reviews were requested. */
export type Review = ReviewState & { readonly ordinal: number };

export type ResultState = { result_number: number; summary: string; submitted_by: string };
export type CommitLink = { commit_id: string; repository: string | null; linked_by: string };
export type ArtifactLink = { uri: string; title: string | null; linked_by: string };
export type GateState = {
  outcome: GateOutcome;
  reason: string | null;
  closed_by: string;
  result_number: number;
  approving_review_id: string | null;
};

/**
 * Everything that grows with the package's history (reviews, links, submitters) is a map keyed
 * by id: an event adds or changes one entry in O(1) and a rule looks one up by its key, so a
 * command costs the same on a package of 10 events and of 10,000 (issue 39). The maps iterate in
 * the order their entries were first added, which is the order the answers list them in.
 */
export type WorkPackage = {
  status: WorkPackageStatus | 'NONE';
  project_id: string;
  work_package_id: string;
  title: string;
  description: string | null;
  acceptance_criteria: string[];
  issued_by: string;
  claimed_by: string | null;
  /** the latest result */
  result: ResultState | null;
  /** everyone who ever submitted a result here (a reviewer must be none of them) */
  submitters: PersistentMap<string, true>;
  /** by review id, in the order they were requested */
  reviews: PersistentMap<string, Review>;
  /** reviewer → the review of theirs still waiting for a verdict (one at most) */
  pendingByReviewer: PersistentMap<string, string>;
  /**
   * The approval an ACCEPT of the latest result rests on: of the APPROVEs of that result by a
   * reviewer independent when they gave it, the one requested last (review.ts, `approvalOf`).
   */
  approval: { review_id: string; ordinal: number } | null;
  /** by `commitKey`, in the order they were linked */
  commits: PersistentMap<string, CommitLink>;
  /** by `artifactKey`, in the order they were linked */
  artifacts: PersistentMap<string, ArtifactLink>;
  /** the latest gate decision */
  gate: GateState | null;
};

/** A link is the same link when all of its identifying fields are (null and '' differ). */
export const commitKey = (commitId: string, repository: string | null): string =>
  JSON.stringify([commitId, repository]);
export const artifactKey = (uri: string, title: string | null): string =>
  JSON.stringify([uri, title]);

export const initialWorkPackage = (): WorkPackage => ({
  status: 'NONE',
  project_id: '',
  work_package_id: '',
  title: '',
  description: null,
  acceptance_criteria: [],
  issued_by: '',
  claimed_by: null,
  result: null,
  submitters: PersistentMap.empty(),
  reviews: PersistentMap.empty(),
  pendingByReviewer: PersistentMap.empty(),
  approval: null,
  commits: PersistentMap.empty(),
  artifacts: PersistentMap.empty(),
  gate: null,
});

/** Why `actorId` may not review this package, or undefined when it is independent. */
export const dependenceOf = (state: WorkPackage, actorId: string): string | undefined => {
  if (state.claimed_by === actorId) return 'the reviewer is the claimant';
  if (state.submitters.has(actorId)) return 'the reviewer submitted a result';
  return undefined;
};

const requested = (state: WorkPackage, event: EventOf<typeof ReviewRequested>): WorkPackage => {
  const { project_id: _p, ...asked } = event.data;
  const review: Review = {
    ...asked,
    status: 'PENDING',
    verdict: null,
    notes: null,
    result_number: null,
    ordinal: state.reviews.size,
  };
  return {
    ...state,
    reviews: state.reviews.with(review.review_id, review),
    pendingByReviewer: state.pendingByReviewer.with(review.reviewer_id, review.review_id),
  };
};

/** Whether a verdict makes `review` the approval an ACCEPT of the latest result would rest on. */
const approves = (state: WorkPackage, review: Review): boolean =>
  review.verdict === 'APPROVE' &&
  state.result !== null &&
  review.result_number === state.result.result_number &&
  review.reviewer_id !== review.requested_by &&
  dependenceOf(state, review.reviewer_id) === undefined &&
  (state.approval === null || state.approval.ordinal < review.ordinal);

const reviewed = (state: WorkPackage, event: EventOf<typeof ReviewSubmitted>): WorkPackage => {
  const { review_id, verdict, notes, result_number } = event.data;
  const before = state.reviews.get(review_id);
  if (!before) return state;
  const review: Review = { ...before, status: 'SUBMITTED', verdict, notes, result_number };
  const pending = state.pendingByReviewer.get(review.reviewer_id) === review_id;
  return {
    ...state,
    reviews: state.reviews.with(review_id, review),
    pendingByReviewer: pending
      ? state.pendingByReviewer.with(review.reviewer_id, undefined)
      : state.pendingByReviewer,
    approval: approves(state, review) ? { review_id, ordinal: review.ordinal } : state.approval,
  };
};

export const evolveWorkPackage = (state: WorkPackage, event: WorkPackageEvent): WorkPackage => {
  switch (event.type) {
    case 'work_package.issued': {
      const { issued_by, ...rest } = event.data;
      return { ...state, ...rest, issued_by, status: 'OPEN' };
    }
    case 'work_package.claimed':
      return { ...state, status: 'CLAIMED', claimed_by: event.data.claimed_by };
    case 'work_package.result_submitted': {
      const { result_number, summary, submitted_by } = event.data;
      const submitters = state.submitters.has(submitted_by)
        ? state.submitters
        : state.submitters.with(submitted_by, true);
      // an approval counts for the result it was given on; this one has none yet
      const result = { result_number, summary, submitted_by };
      return { ...state, status: 'SUBMITTED', result, submitters, approval: null };
    }
    case 'review.requested':
      return requested(state, event);
    case 'review.submitted':
      return reviewed(state, event);
    case 'commit.linked': {
      const { commit_id, repository, linked_by } = event.data;
      const link = { commit_id, repository, linked_by };
      return { ...state, commits: state.commits.with(commitKey(commit_id, repository), link) };
    }
    case 'artifact.linked': {
      const { uri, title, linked_by } = event.data;
      const link = { uri, title, linked_by };
      return { ...state, artifacts: state.artifacts.with(artifactKey(uri, title), link) };
    }
    case 'gate.closed': {
      const { outcome, reason, closed_by, result_number, approving_review_id } = event.data;
      const gate = { outcome, reason, closed_by, result_number, approving_review_id };
      return { ...state, status: event.data.status, claimed_by: event.data.claimed_by, gate };
    }
  }
};

/** A review as answers show it. */
export const reviewOf = ({ ordinal: _o, ...review }: Review): ReviewState => review;

/**
 * The work package as command results show it (the read model adds timestamps). Its lists are
 * the whole package's: this answer, unlike the decision, grows with the package.
 */
export const workPackageResult = (state: WorkPackage) => ({
  project_id: state.project_id,
  work_package_id: state.work_package_id,
  title: state.title,
  description: state.description,
  acceptance_criteria: state.acceptance_criteria,
  // a result is only made for a package that exists
  status: state.status as WorkPackageStatus,
  issued_by: state.issued_by,
  claimed_by: state.claimed_by,
  result: state.result,
  reviews: [...state.reviews.values()].map(reviewOf),
  links: { commits: [...state.commits.values()], artifacts: [...state.artifacts.values()] },
  gate: state.gate,
});
export type WorkPackageResult = ReturnType<typeof workPackageResult>;

type By = { by: Caller };

/** What can be asked of a work package; ids the decider cannot invent come in the command. */
export type WorkPackageCommand =
  | {
      type: 'IssueWorkPackage';
      data: By & {
        project_id: string;
        work_package_id: string;
        title: string;
        description: string | null;
        acceptance_criteria: string[];
      };
    }
  | { type: 'ClaimWorkPackage'; data: By }
  | { type: 'SubmitResult'; data: By & { summary: string } }
  | {
      type: 'RequestReview';
      /** `reviewer_role`: the reviewer's role in the project, null when not a member */
      data: By & { review_id: string; reviewer_id: string; reviewer_role: Role | null };
    }
  | {
      type: 'SubmitReview';
      data: By & { review_id: string; verdict: Verdict; notes: string | null };
    }
  | { type: 'LinkCommit'; data: By & { commit_id: string; repository: string | null } }
  | { type: 'LinkArtifact'; data: By & { uri: string; title: string | null } }
  | { type: 'CloseGate'; data: By & { outcome: GateOutcome; reason: string | null } };

export type CommandOf<T extends WorkPackageCommand['type']> = Extract<
  WorkPackageCommand,
  { type: T }
>;

/** The package exists (else `not_found`). */
export const requirePackage = (state: WorkPackage): void => {
  if (state.status === 'NONE') throw notFound('work package not found');
};

/** The package is in one of `allowed` (else `invalid_state`, naming where it is). */
export const requireStatus = (
  state: WorkPackage,
  allowed: readonly WorkPackageStatus[],
  action: string,
): void => {
  requirePackage(state);
  if (!allowed.includes(state.status as WorkPackageStatus))
    throw invalidState(`cannot ${action}: the work package is ${state.status}`, {
      status: state.status,
      allowed_statuses: [...allowed],
    });
};

/** The two ids every work package event carries. */
export const onPackage = (state: WorkPackage) => ({
  project_id: state.project_id,
  work_package_id: state.work_package_id,
});

// Snapshots of a work package: reviews, links, gate (src/commands/snapshots.ts): bump `version` whenever evolveWorkPackage or the state's
// shape changes, so snapshots of the old fold are ignored and streams folded again.
Snapshots.declare({
  name: 'governance.work_package',
  version: 1,
  evolve: evolveWorkPackage,
  initialState: initialWorkPackage,
});
