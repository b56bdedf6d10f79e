import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import type {
  EscalationRaised,
  EscalationResolved,
  EscalationTarget,
} from '../../events/governance/index.js';
import { invalidState, notFound } from '../errors.js';
import { requireRole, Roles, type Caller } from './roles.js';

export type EscalationEvent = EventOf<typeof EscalationRaised> | EventOf<typeof EscalationResolved>;

export type Escalation = {
  status: 'NONE' | 'OPEN' | 'RESOLVED';
  project_id: string;
  escalation_id: string;
  subject: string;
  details: string;
  target_role: EscalationTarget | null;
  work_package_id: string | null;
  raised_by: string;
  resolution: string | null;
  resolved_by: string | null;
};

export type EscalationCommand =
  | {
      type: 'RaiseEscalation';
      data: {
        by: Caller;
        project_id: string;
        escalation_id: string;
        subject: string;
        details: string;
        target_role: EscalationTarget | null;
        work_package_id: string | null;
        work_package_found: boolean;
      };
    }
  | { type: 'ResolveEscalation'; data: { by: Caller; resolution: string } };

const raise = (
  {
    by,
    work_package_found,
    ...data
  }: Extract<EscalationCommand, { type: 'RaiseEscalation' }>['data'],
  state: Escalation,
): EscalationEvent[] => {
  requireRole(by, Roles.member, 'raise an escalation');
  if (data.work_package_id !== null && !work_package_found)
    throw notFound('work package not found', { work_package_id: data.work_package_id });
  if (state.status !== 'NONE') throw invalidState('escalation id already used');
  return [{ type: 'escalation.raised', data: { ...data, raised_by: by.actor_id } }];
};

const resolve = (
  { by, resolution }: Extract<EscalationCommand, { type: 'ResolveEscalation' }>['data'],
  state: Escalation,
): EscalationEvent[] => {
  requireRole(by, Roles.resolveEscalation, 'resolve an escalation');
  if (state.status === 'NONE') throw notFound('escalation not found');
  if (state.status === 'RESOLVED')
    throw invalidState('the escalation is already resolved', { resolved_by: state.resolved_by });
  const { project_id, escalation_id, target_role, work_package_id } = state;
  const data = { project_id, escalation_id, target_role, work_package_id, resolution };
  return [{ type: 'escalation.resolved', data: { ...data, resolved_by: by.actor_id } }];
};

const initialEscalation = (): Escalation => ({
  status: 'NONE',
  project_id: '',
  escalation_id: '',
  subject: '',
  details: '',
  target_role: null,
  work_package_id: null,
  raised_by: '',
  resolution: null,
  resolved_by: null,
});

export const escalationDecider: Decider<Escalation, EscalationCommand, EscalationEvent> = {
  decide: (command, state) =>
    command.type === 'RaiseEscalation' ? raise(command.data, state) : resolve(command.data, state),
  evolve: (state, event) =>
    event.type === 'escalation.raised'
      ? { ...state, ...event.data, status: 'OPEN' }
      : {
          ...state,
          status: 'RESOLVED',
          resolution: event.data.resolution,
          resolved_by: event.data.resolved_by,
        },
  initialState: initialEscalation,
};
