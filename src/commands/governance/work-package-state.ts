import type { EventOf } from '../../events/index.js';
import type { Role } from '../../events/project/index.js';
import { invalidState, notFound } from '../errors.js';
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
  submitters: string[];
  reviews: ReviewState[];
  commits: CommitLink[];
  artifacts: ArtifactLink[];
  /** the latest gate decision */
  gate: GateState | null;
};

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
  submitters: [],
  reviews: [],
  commits: [],
  artifacts: [],
  gate: null,
});

const withReview = (
  state: WorkPackage,
  reviewId: string,
  change: (review: ReviewState) => ReviewState,
): WorkPackage => ({
  ...state,
  reviews: state.reviews.map((r) => (r.review_id === reviewId ? change(r) : r)),
});

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
      const submitters = state.submitters.includes(submitted_by)
        ? state.submitters
        : [...state.submitters, submitted_by];
      return {
        ...state,
        status: 'SUBMITTED',
        result: { result_number, summary, submitted_by },
        submitters,
      };
    }
    case 'review.requested': {
      const { project_id: _p, ...review } = event.data;
      const pending = { ...review, status: 'PENDING' as const, verdict: null, notes: null };
      return { ...state, reviews: [...state.reviews, { ...pending, result_number: null }] };
    }
    case 'review.submitted': {
      const { verdict, notes, result_number } = event.data;
      return withReview(state, event.data.review_id, (r) => ({
        ...r,
        status: 'SUBMITTED',
        verdict,
        notes,
        result_number,
      }));
    }
    case 'commit.linked': {
      const { commit_id, repository, linked_by } = event.data;
      return { ...state, commits: [...state.commits, { commit_id, repository, linked_by }] };
    }
    case 'artifact.linked': {
      const { uri, title, linked_by } = event.data;
      return { ...state, artifacts: [...state.artifacts, { uri, title, linked_by }] };
    }
    case 'gate.closed': {
      const { outcome, reason, closed_by, result_number, approving_review_id } = event.data;
      const gate = { outcome, reason, closed_by, result_number, approving_review_id };
      return { ...state, status: event.data.status, claimed_by: event.data.claimed_by, gate };
    }
  }
};

/** The work package as command results show it (the read model adds timestamps). */
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
  reviews: state.reviews,
  links: { commits: state.commits, artifacts: state.artifacts },
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
