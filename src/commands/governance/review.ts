import { forbidden, invalidArgument, invalidState, notFound } from '../errors.js';
import { requireRole, Roles } from './roles.js';
import {
  dependenceOf,
  onPackage,
  requireStatus,
  type CommandOf,
  type Review,
  type WorkPackage,
  type WorkPackageEvent,
} from './work-package-state.js';

/**
 * Reviews are part of the work package aggregate: they are requested, answered and counted by
 * the gate on the package's own stream, so independence and "approved after the latest result"
 * are decided against the same version the gate is.
 */

export const requestReview = (
  { by, review_id, reviewer_id, reviewer_role }: CommandOf<'RequestReview'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.requestReview, 'request a review');
  requireStatus(state, ['CLAIMED', 'SUBMITTED'], 'request a review');
  if (reviewer_role === null)
    throw notFound('the reviewer is not an active member of this project', { reviewer_id });
  const dependence =
    dependenceOf(state, reviewer_id) ??
    (reviewer_id === by.actor_id ? 'the reviewer is the requester' : undefined);
  if (dependence)
    throw invalidArgument(`the reviewer must be independent: ${dependence}`, {
      reason: 'reviewer_not_independent',
      reviewer_id,
    });
  const pending = state.pendingByReviewer.get(reviewer_id);
  if (pending)
    throw invalidState('the reviewer already has a pending review of this work package', {
      review_id: pending,
    });
  if (state.reviews.has(review_id)) throw invalidState('review id already used', { review_id });
  const requested_by = by.actor_id;
  return [
    {
      type: 'review.requested',
      data: { ...onPackage(state), review_id, reviewer_id, requested_by },
    },
  ];
};

export const submitReview = (
  { by, review_id, verdict, notes }: CommandOf<'SubmitReview'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.member, 'submit a review');
  const review = state.reviews.get(review_id);
  if (!review) throw notFound('review not found', { review_id });
  if (review.reviewer_id !== by.actor_id)
    throw forbidden('only the assigned reviewer submits this review', { review_id });
  if (review.status !== 'PENDING')
    throw invalidState('the review has already been submitted', {
      review_id,
      verdict: review.verdict,
    });
  requireStatus(state, ['CLAIMED', 'SUBMITTED'], 'submit a review');
  const data = {
    ...onPackage(state),
    review_id,
    reviewer_id: review.reviewer_id,
    verdict,
    notes,
    result_number: state.result?.result_number ?? 0,
  };
  return [{ type: 'review.submitted', data }];
};

/**
 * The approval an ACCEPT can rest on: an APPROVE given after the latest result (its
 * result_number is the latest) by a reviewer independent of the work and of the request, the
 * one requested last. The fold keeps it as the APPROVEs come in (work-package-state.ts), so the
 * gate looks at one review, not at every review the package ever had. Independence is judged
 * again here against the state the gate decides on; it cannot have changed since the verdict
 * (the claimant never changes once set and only the claimant submits), so the candidate the fold
 * kept is the one a search of every review would find.
 */
export const approvalOf = (state: WorkPackage): Review | undefined => {
  const review = state.approval && state.reviews.get(state.approval.review_id);
  return review && dependenceOf(state, review.reviewer_id) === undefined ? review : undefined;
};
