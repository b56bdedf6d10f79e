import { isDomainError, type ErrorCode } from '../../src/commands/errors.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import type { WorkPackageEvent } from '../../src/commands/governance/work-package-state.js';

/** One cast of actors for every governance test. */
export const po: Caller = { actor_id: 'olivia', role: 'PO' };
export const pm: Caller = { actor_id: 'pat', role: 'PM' };
export const pa: Caller = { actor_id: 'paul', role: 'PA' };
export const architect: Caller = { actor_id: 'ada', role: 'ARCHITECT' };
export const lead: Caller = { actor_id: 'linus', role: 'LEAD_ENGINEER' };
export const impl: Caller = { actor_id: 'ivan', role: 'IMPLEMENTER' };
export const impl2: Caller = { actor_id: 'irene', role: 'IMPLEMENTER' };
export const reviewer: Caller = { actor_id: 'rita', role: 'REVIEWER' };
export const reviewer2: Caller = { actor_id: 'rolf', role: 'REVIEWER' };
export const system: Caller = { actor_id: 'system', role: 'SYSTEM' };

export const P = 'acme';
export const WP = 'WP-001';

/** `thenThrows` check: a DomainError with this code. */
export const withCode =
  (code: ErrorCode) =>
  (error: Error): boolean =>
    isDomainError(error) && error.code === code;

/** The two ids every event of the work package `WP` carries. */
export const on = { project_id: P, work_package_id: WP };

/**
 * The history of one work package, as the events its stream would hold. Each builder gives a
 * complete event (every data field), so it may also stand as an expected one.
 */
export const history = {
  issued: (by: Caller = po): WorkPackageEvent => ({
    type: 'work_package.issued',
    data: {
      ...on,
      title: 'Add login',
      description: null,
      acceptance_criteria: ['a user can log in'],
      issued_by: by.actor_id,
    },
  }),
  claimed: (by: Caller = impl): WorkPackageEvent => ({
    type: 'work_package.claimed',
    data: { ...on, claimed_by: by.actor_id },
  }),
  result: (result_number = 1, by: Caller = impl): WorkPackageEvent => ({
    type: 'work_package.result_submitted',
    data: { ...on, result_number, summary: `result ${result_number}`, submitted_by: by.actor_id },
  }),
  reviewRequested: (
    review_id: string,
    to: Caller = reviewer,
    by: Caller = impl,
  ): WorkPackageEvent => ({
    type: 'review.requested',
    data: { ...on, review_id, reviewer_id: to.actor_id, requested_by: by.actor_id },
  }),
  reviewed: (
    review_id: string,
    verdict: 'APPROVE' | 'REQUEST_CHANGES' | 'REJECT',
    result_number = 1,
    by: Caller = reviewer,
  ): WorkPackageEvent => ({
    type: 'review.submitted',
    data: { ...on, review_id, reviewer_id: by.actor_id, verdict, notes: null, result_number },
  }),
  gate: (
    outcome: 'ACCEPT' | 'REJECT' | 'REWORK',
    result_number = 1,
    approving_review_id: string | null = null,
    by: Caller = pm,
  ): WorkPackageEvent => ({
    type: 'gate.closed',
    data: {
      ...on,
      outcome,
      reason: null,
      status: outcome === 'ACCEPT' ? 'ACCEPTED' : outcome === 'REJECT' ? 'REJECTED' : 'CLAIMED',
      claimed_by: impl.actor_id,
      result_number,
      approving_review_id,
      closed_by: by.actor_id,
    },
  }),
};

/** A package waiting at its gate: issued, claimed by `impl`, result 1 submitted. */
export const submitted = (): WorkPackageEvent[] => [
  history.issued(),
  history.claimed(),
  history.result(1),
];
