import { describe, it } from 'node:test';
import { DeciderSpecification } from '@event-driven-io/emmett';
import { workPackageDecider } from '../../src/commands/governance/work-package.js';
import type { WorkPackageCommand } from '../../src/commands/governance/work-package-state.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import {
  architect,
  expected,
  history,
  impl,
  impl2,
  lead,
  P,
  pa,
  pm,
  po,
  reviewer,
  submitted,
  system,
  some,
  withCode,
  WP,
} from './fixture.js';

const given = DeciderSpecification.for(workPackageDecider);

const issue = (by: Caller): WorkPackageCommand => ({
  type: 'IssueWorkPackage',
  data: {
    by,
    project_id: P,
    work_package_id: WP,
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
        .then([expected(history.issued(by))]));

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
        some('work_package.result_submitted', {
          project_id: P,
          work_package_id: WP,
          result_number: 1,
          summary: 'done',
        }),
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
        some('work_package.result_submitted', {
          project_id: P,
          work_package_id: WP,
          result_number: 2,
          submitted_by: 'ivan',
        }),
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
        some('gate.closed', {
          outcome: 'ACCEPT',
          status: 'ACCEPTED',
          approving_review_id: 'r1',
          result_number: 1,
          closed_by: 'olivia',
        }),
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
      .then([some('gate.closed', { approving_review_id: 'r2', result_number: 2 })]));

  it('REWORK sends the package back to its claimant', () =>
    given(submitted())
      .when(gate('REWORK'))
      .then([some('gate.closed', { status: 'CLAIMED', claimed_by: 'ivan' })]));

  it('REJECT withdraws even an OPEN package; it cannot be claimed after', () =>
    given([history.issued()])
      .when(gate('REJECT', po))
      .then([some('gate.closed', { status: 'REJECTED', outcome: 'REJECT' })]));

  it('a REJECTED package cannot be claimed', () =>
    given([history.issued(), history.gate('REJECT', 0)])
      .when(claim(impl))
      .thenThrows(withCode('invalid_state')));

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
