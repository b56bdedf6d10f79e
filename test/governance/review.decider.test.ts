import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import type { Role } from '../../src/events/project/index.js';
import { workPackageDecider } from '../../src/commands/governance/work-package.js';
import type { WorkPackageCommand } from '../../src/commands/governance/work-package-state.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import {
  architect,
  history,
  impl,
  impl2,
  lead,
  on,
  pa,
  pm,
  po,
  reviewer,
  reviewer2,
  submitted,
  system,
  withCode,
} from './fixture.js';

const given = deciderSpec(workPackageDecider);

const request = (
  by: Caller,
  to: Caller,
  review_id = 'r1',
  reviewer_role: Role | null = to.role === 'SYSTEM' ? null : to.role,
): WorkPackageCommand => ({
  type: 'RequestReview',
  data: { by, review_id, reviewer_id: to.actor_id, reviewer_role },
});
const verdict = (
  by: Caller,
  v: 'APPROVE' | 'REQUEST_CHANGES' | 'REJECT',
  review_id = 'r1',
): WorkPackageCommand => ({
  type: 'SubmitReview',
  data: { by, review_id, verdict: v, notes: null },
});

describe('review: request_review', () => {
  for (const by of [po, pm, pa, architect, lead, impl])
    it(`${by.role} requests an independent review`, () =>
      given(submitted())
        .when(request(by, reviewer))
        .then([history.reviewRequested('r1', reviewer, by)]));

  it('a REVIEWER does not request reviews', () =>
    given(submitted()).when(request(reviewer2, reviewer)).thenThrows(withCode('forbidden')));

  it('nor does SYSTEM', () =>
    given(submitted()).when(request(system, reviewer)).thenThrows(withCode('forbidden')));

  it('the claimant (also the submitter) cannot review', () =>
    given(submitted()).when(request(pm, impl)).thenThrows(withCode('invalid_argument')));

  it('the requester cannot review', () =>
    given(submitted()).when(request(pm, pm)).thenThrows(withCode('invalid_argument')));

  it('another member with any role may review', () =>
    given(submitted())
      .when(request(impl, impl2))
      .then([history.reviewRequested('r1', impl2, impl)]));

  it('a reviewer who is not a member is not_found', () =>
    given(submitted())
      .when(request(impl, { actor_id: 'mallory', role: 'REVIEWER' }, 'r1', null))
      .thenThrows(withCode('not_found')));

  it('an OPEN package has nothing to review yet', () =>
    given([history.issued()]).when(request(pm, reviewer)).thenThrows(withCode('invalid_state')));

  it('one pending review per reviewer and package', () =>
    given([...submitted(), history.reviewRequested('r1')])
      .when(request(pm, reviewer, 'r2'))
      .thenThrows(withCode('invalid_state')));

  it('after a verdict the same reviewer may be asked again', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1'),
      history.reviewed('r1', 'REQUEST_CHANGES'),
    ])
      .when(request(pm, reviewer, 'r2'))
      .then([history.reviewRequested('r2', reviewer, pm)]));
});

describe('review: submit_review', () => {
  const requested = () => [...submitted(), history.reviewRequested('r1')];

  for (const v of ['APPROVE', 'REQUEST_CHANGES', 'REJECT'] as const)
    it(`the assigned reviewer submits ${v} on result 1`, () =>
      given(requested())
        .when(verdict(reviewer, v))
        .then([
          {
            type: 'review.submitted',
            data: {
              ...on,
              review_id: 'r1',
              reviewer_id: 'rita',
              verdict: v,
              notes: null,
              result_number: 1,
            },
          },
        ]));

  for (const by of [reviewer2, po, impl])
    it(`${by.actor_id} (not assigned) may not submit it`, () =>
      given(requested()).when(verdict(by, 'APPROVE')).thenThrows(withCode('forbidden')));

  it('SYSTEM may not submit it', () =>
    given(requested()).when(verdict(system, 'APPROVE')).thenThrows(withCode('forbidden')));

  it('an unknown review is not_found', () =>
    given(requested())
      .when(verdict(reviewer, 'APPROVE', 'r9'))
      .thenThrows(withCode('not_found')));

  it('a review takes one verdict', () =>
    given([...requested(), history.reviewed('r1', 'REQUEST_CHANGES')])
      .when(verdict(reviewer, 'APPROVE'))
      .thenThrows(withCode('invalid_state')));

  it('no verdict once the package is closed', () =>
    given([...requested(), history.gate('REJECT')])
      .when(verdict(reviewer, 'APPROVE'))
      .thenThrows(withCode('invalid_state')));
});
