import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { workPackageDecider } from '../../src/commands/governance/work-package.js';
import type {
  WorkPackageCommand,
  WorkPackageEvent,
} from '../../src/commands/governance/work-package-state.js';
import { history, impl, on, po, reviewer, reviewer2, submitted } from './fixture.js';

/**
 * The rules that read the package's history through an index kept by the fold (issue 39): the
 * approval an ACCEPT rests on, a reviewer's pending review, a link already made.
 */
const given = deciderSpec(workPackageDecider);

const accept: WorkPackageCommand = {
  type: 'CloseGate',
  data: { by: po, outcome: 'ACCEPT', reason: null },
};
const accepted = (approving_review_id: string, result_number = 1) =>
  history.gate('ACCEPT', result_number, approving_review_id, po);

describe('history: the approval an ACCEPT rests on', () => {
  it('is the approval requested last, whatever order the verdicts came in', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1', reviewer),
      history.reviewRequested('r2', reviewer2),
      history.reviewed('r2', 'APPROVE', 1, reviewer2),
      history.reviewed('r1', 'APPROVE', 1, reviewer),
    ])
      .when(accept)
      .then([accepted('r2')]));

  it('is an earlier request when the later one asked for changes', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1', reviewer),
      history.reviewRequested('r2', reviewer2),
      history.reviewed('r2', 'REQUEST_CHANGES', 1, reviewer2),
      history.reviewed('r1', 'APPROVE', 1, reviewer),
    ])
      .when(accept)
      .then([accepted('r1')]));

  it('is not an APPROVE given after a REWORK, before the next result', () =>
    given([
      ...submitted(),
      history.reviewRequested('r1'),
      history.gate('REWORK'),
      history.reviewed('r1', 'APPROVE', 1),
      history.result(2),
    ])
      .when(accept)
      .thenThrows((error) => /ACCEPT needs an APPROVE/.test(error.message)));

  it('is the approval of the latest result among many of earlier ones', () =>
    given([
      ...submitted(),
      ...[1, 2, 3].flatMap((n) => [
        history.reviewRequested(`r${n}`),
        history.reviewed(`r${n}`, 'APPROVE', n),
        history.gate('REWORK', n),
        history.result(n + 1),
      ]),
      history.reviewRequested('r4'),
      history.reviewed('r4', 'APPROVE', 4),
    ])
      .when(accept)
      .then([accepted('r4', 4)]));
});

describe('history: links are told apart by every field that names them', () => {
  const link = (repository: string | null): WorkPackageCommand => ({
    type: 'LinkCommit',
    data: { by: impl, commit_id: 'abcdef12', repository },
  });
  const linked = (repository: string | null, commit_id = 'abcdef12'): WorkPackageEvent => ({
    type: 'commit.linked',
    data: { ...on, commit_id, repository, linked_by: impl.actor_id },
  });

  it('the same commit in another repository is another link', () =>
    given([history.issued(), linked('github.com/acme/app')])
      .when(link('github.com/acme/lib'))
      .then([linked('github.com/acme/lib')]));

  it('no repository and an empty one are two links', () =>
    given([history.issued(), linked(null)])
      .when(link(''))
      .then([linked('')]));

  it('the same commit and repository among thousands of links changes nothing', () =>
    given([
      history.issued(),
      ...Array.from({ length: 5000 }, (_, i) => linked(null, i.toString(16).padStart(8, '0'))),
    ])
      .when({ type: 'LinkCommit', data: { by: impl, commit_id: '00000FFF', repository: null } })
      .thenNothingHappened());
});
