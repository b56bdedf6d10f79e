import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { workPackageDecider } from '../../src/commands/governance/work-package.js';
import type {
  WorkPackageCommand,
  WorkPackageEvent,
} from '../../src/commands/governance/work-package-state.js';
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
  submitted,
  system,
  withCode,
} from './fixture.js';

const given = deciderSpec(workPackageDecider);

const issue = (by: Caller): WorkPackageCommand => ({
  type: 'IssueWorkPackage',
  data: {
    by,
    ...on,
    title: 'Add login',
    description: null,
    acceptance_criteria: ['a user can log in'],
  },
});
const claim = (by: Caller): WorkPackageCommand => ({ type: 'ClaimWorkPackage', data: { by } });
const submit = (by: Caller): WorkPackageCommand => ({
  type: 'SubmitResult',
  data: { by, summary: 'done' },
});
const gate = (outcome: 'ACCEPT' | 'REJECT' | 'REWORK', by: Caller = pm): WorkPackageCommand => ({
  type: 'CloseGate',
  data: { by, outcome, reason: null },
});

describe('work package: issue', () => {
  for (const by of [po, pm])
    it(`${by.role} issues an OPEN work package`, () =>
      given([])
        .when(issue(by))
        .then([history.issued(by)]));

  for (const by of [pa, architect, impl, reviewer, system])
    it(`${by.role} may not issue`, () =>
      given([]).when(issue(by)).thenThrows(withCode('forbidden')));

  it('an id already issued is invalid_state', () =>
    given([history.issued()]).when(issue(pm)).thenThrows(withCode('invalid_state')));
});

describe('work package: claim', () => {
  for (const by of [architect, lead, impl])
    it(`${by.role} claims an OPEN package`, () =>
      given([history.issued()])
        .when(claim(by))
        .then([history.claimed(by)]));

  for (const by of [po, pm, pa, reviewer, system])
    it(`${by.role} may not claim`, () =>
      given([history.issued()]).when(claim(by)).thenThrows(withCode('forbidden')));

  it('a claimed package cannot be claimed again (the loser of a race)', () =>
    given([history.issued(), history.claimed(impl)])
      .when(claim(impl2))
      .thenThrows(withCode('invalid_state')));

  it('not even by its own claimant', () =>
    given([history.issued(), history.claimed(impl)])
      .when(claim(impl))
      .thenThrows(withCode('invalid_state')));

  it('a package never issued is not_found', () =>
    given([]).when(claim(impl)).thenThrows(withCode('not_found')));
});

describe('work package: submit_result', () => {
  it('the claimant submits result 1', () =>
    given([history.issued(), history.claimed()])
      .when(submit(impl))
      .then([
        {
          type: 'work_package.result_submitted',
          data: { ...on, result_number: 1, summary: 'done', submitted_by: 'ivan' },
        },
      ]));

  for (const by of [impl2, lead, po])
    it(`${by.actor_id} (not the claimant) may not submit`, () =>
      given([history.issued(), history.claimed()])
        .when(submit(by))
        .thenThrows(withCode('forbidden')));

  it('a submitted package takes no second result before its gate', () =>
    given(submitted()).when(submit(impl)).thenThrows(withCode('invalid_state')));

  it('after REWORK the claimant submits result 2', () =>
    given([...submitted(), history.gate('REWORK')])
      .when(submit(impl))
      .then([
        {
          type: 'work_package.result_submitted',
          data: { ...on, result_number: 2, summary: 'done', submitted_by: 'ivan' },
        },
      ]));

  it('after REWORK nobody else submits', () =>
    given([...submitted(), history.gate('REWORK')])
      .when(submit(impl2))
      .thenThrows(withCode('forbidden')));
});

describe('work package: close_gate', () => {
  it('ACCEPT with an independent APPROVE of the latest result', () =>
    given([...submitted(), history.reviewRequested('r1'), history.reviewed('r1', 'APPROVE')])
      .when(gate('ACCEPT', po))
      .then([
        {
          type: 'gate.closed',
          data: {
            ...on,
            outcome: 'ACCEPT',
            reason: null,
            status: 'ACCEPTED',
            claimed_by: 'ivan',
            result_number: 1,
            approving_review_id: 'r1',
            closed_by: 'olivia',
          },
        },
      ]));

  it('ACCEPT without any review is invalid_state', () =>
    given(submitted()).when(gate('ACCEPT')).thenThrows(withCode('invalid_state')));

  it('ACCEPT on REQUEST_CHANGES alone is invalid_state', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1'),
      history.reviewed('r1', 'REQUEST_CHANGES'),
    ])
      .when(gate('ACCEPT'))
      .thenThrows(withCode('invalid_state')));

  it('ACCEPT on a review still pending is invalid_state', () =>
    given([...submitted(), history.reviewRequested('r1')])
      .when(gate('ACCEPT'))
      .thenThrows(withCode('invalid_state')));

  it('an APPROVE of an earlier result does not count after a new result', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1'),
      history.reviewed('r1', 'APPROVE', 1),
      history.gate('REWORK'),
      history.result(2),
    ])
      .when(gate('ACCEPT'))
      .thenThrows(withCode('invalid_state')));

  it('an APPROVE given after the new result counts', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1'),
      history.reviewed('r1', 'REQUEST_CHANGES', 1),
      history.gate('REWORK'),
      history.result(2),
      history.reviewRequested('r2'),
      history.reviewed('r2', 'APPROVE', 2),
    ])
      .when(gate('ACCEPT'))
      .then([
        {
          type: 'gate.closed',
          data: {
            ...on,
            outcome: 'ACCEPT',
            reason: null,
            status: 'ACCEPTED',
            claimed_by: 'ivan',
            result_number: 2,
            approving_review_id: 'r2',
            closed_by: 'pat',
          },
        },
      ]));

  it('REWORK sends the package back to its claimant', () =>
    given(submitted())
      .when(gate('REWORK'))
      .then([
        {
          type: 'gate.closed',
          data: {
            ...on,
            outcome: 'REWORK',
            reason: null,
            status: 'CLAIMED',
            claimed_by: 'ivan',
            result_number: 1,
            approving_review_id: null,
            closed_by: 'pat',
          },
        },
      ]));

  // nobody claimed it and no result was submitted: no claimant, result 0
  const withdrawn: WorkPackageEvent = {
    type: 'gate.closed',
    data: {
      ...on,
      outcome: 'REJECT',
      reason: null,
      status: 'REJECTED',
      claimed_by: null,
      result_number: 0,
      approving_review_id: null,
      closed_by: 'olivia',
    },
  };

  it('REJECT withdraws even an OPEN package; it cannot be claimed after', () =>
    given([history.issued()]).when(gate('REJECT', po)).then([withdrawn]));

  it('a REJECTED package cannot be claimed', () =>
    given([history.issued(), withdrawn]).when(claim(impl)).thenThrows(withCode('invalid_state')));

  it('ACCEPT and REWORK judge a result: not on a CLAIMED package', () =>
    given([history.issued(), history.claimed()])
      .when(gate('REWORK'))
      .thenThrows(withCode('invalid_state')));

  it('an ACCEPTED package is final', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1'),
      history.reviewed('r1', 'APPROVE'),
      history.gate('ACCEPT', 1, 'r1'),
    ])
      .when(gate('REJECT'))
      .thenThrows(withCode('invalid_state')));

  for (const by of [pa, architect, impl, reviewer, system])
    it(`${by.role} may not close a gate`, () =>
      given(submitted()).when(gate('REJECT', by)).thenThrows(withCode('forbidden')));
});
