import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import type { DecisionKind, DecisionRecorded } from '../../events/governance/index.js';
import { invalidState, notFound } from '../errors.js';
import { requireRole, Roles, type Caller } from './roles.js';

/** A decision is recorded once and never changes: its stream holds one event. */
export type DecisionEvent = EventOf<typeof DecisionRecorded>;
export type Decision = { recorded: false } | ({ recorded: true } & DecisionEvent['data']);

export type DecisionCommand = {
  type: 'RecordDecision';
  data: {
    by: Caller;
    project_id: string;
    decision_id: string;
    kind: DecisionKind;
    title: string;
    rationale: string;
    work_package_id: string | null;
    /** whether `work_package_id` names a work package of the project */
    work_package_found: boolean;
  };
};

const decide = ({ data }: DecisionCommand, state: Decision): DecisionEvent[] => {
  const { by, work_package_found, ...decision } = data;
  // product decisions belong to the PO; PA records none (it is in neither set)
  const allowed = decision.kind === 'product' ? Roles.productDecision : Roles.otherDecision;
  requireRole(by, allowed, `record a ${decision.kind} decision`);
  if (decision.work_package_id !== null && !work_package_found)
    throw notFound('work package not found', { work_package_id: decision.work_package_id });
  if (state.recorded) throw invalidState('decision id already used');
  return [{ type: 'decision.recorded', data: { ...decision, recorded_by: by.actor_id } }];
};

export const decisionDecider: Decider<Decision, DecisionCommand, DecisionEvent> = {
  decide,
  evolve: (_state, event) => ({ recorded: true, ...event.data }),
  initialState: () => ({ recorded: false }),
};
