import type { Decider } from '@event-driven-io/emmett';
import type { WorkPackageStatus } from '../../events/governance/index.js';
import { forbidden, invalidState } from '../errors.js';
import { linkArtifact, linkCommit } from './links.js';
import { approvalOf, requestReview, submitReview } from './review.js';
import { requireRole, Roles } from './roles.js';
import {
  evolveWorkPackage,
  initialWorkPackage,
  onPackage,
  requirePackage,
  requireStatus,
  type CommandOf,
  type WorkPackage,
  type WorkPackageCommand,
  type WorkPackageEvent,
} from './work-package-state.js';

const issue = (
  { by, ...data }: CommandOf<'IssueWorkPackage'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.issue, 'issue a work package');
  if (state.status !== 'NONE')
    throw invalidState('work package already exists', { work_package_id: data.work_package_id });
  return [{ type: 'work_package.issued', data: { ...data, issued_by: by.actor_id } }];
};

// Racing claims are decided one after another on the same stream version: the first append
// wins, every other retry re-decides on CLAIMED and gets invalid_state.
const claim = (
  { by }: CommandOf<'ClaimWorkPackage'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.claim, 'claim a work package');
  requireStatus(state, ['OPEN'], 'claim');
  const data = { ...onPackage(state), claimed_by: by.actor_id };
  return [{ type: 'work_package.claimed', data }];
};

const submit = (
  { by, summary }: CommandOf<'SubmitResult'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requirePackage(state);
  if (state.claimed_by !== by.actor_id)
    throw forbidden('only the claiming actor submits a result', { claimed_by: state.claimed_by });
  requireStatus(state, ['CLAIMED'], 'submit a result');
  const result_number = (state.result?.result_number ?? 0) + 1;
  const data = { ...onPackage(state), result_number, summary, submitted_by: by.actor_id };
  return [{ type: 'work_package.result_submitted', data }];
};

const closeGate = (
  { by, outcome, reason }: CommandOf<'CloseGate'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.closeGate, 'close a gate');
  // REJECT also withdraws a package nobody has finished; ACCEPT and REWORK judge a result
  const from =
    outcome === 'REJECT' ? (['OPEN', 'CLAIMED', 'SUBMITTED'] as const) : ['SUBMITTED' as const];
  requireStatus(state, from, `close the gate with ${outcome}`);
  const approval = outcome === 'ACCEPT' ? approvalOf(state) : undefined;
  if (outcome === 'ACCEPT' && !approval)
    throw invalidState(
      'ACCEPT needs an APPROVE review by an independent reviewer submitted after the latest result',
      { result_number: state.result?.result_number ?? 0 },
    );
  const status: WorkPackageStatus =
    outcome === 'ACCEPT' ? 'ACCEPTED' : outcome === 'REJECT' ? 'REJECTED' : 'CLAIMED';
  const data = {
    ...onPackage(state),
    outcome,
    reason,
    status,
    claimed_by: state.claimed_by,
    result_number: state.result?.result_number ?? 0,
    approving_review_id: approval?.review_id ?? null,
    closed_by: by.actor_id,
  };
  return [{ type: 'gate.closed', data }];
};

const decide = (command: WorkPackageCommand, state: WorkPackage): WorkPackageEvent[] => {
  switch (command.type) {
    case 'IssueWorkPackage':
      return issue(command.data, state);
    case 'ClaimWorkPackage':
      return claim(command.data, state);
    case 'SubmitResult':
      return submit(command.data, state);
    case 'RequestReview':
      return requestReview(command.data, state);
    case 'SubmitReview':
      return submitReview(command.data, state);
    case 'LinkCommit':
      return linkCommit(command.data, state);
    case 'LinkArtifact':
      return linkArtifact(command.data, state);
    case 'CloseGate':
      return closeGate(command.data, state);
  }
};

/** The work package: issue → claim → result → reviews → gate (docs/governance.md). */
export const workPackageDecider: Decider<WorkPackage, WorkPackageCommand, WorkPackageEvent> = {
  decide,
  evolve: evolveWorkPackage,
  initialState: initialWorkPackage,
};
