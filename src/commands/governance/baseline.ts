import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import type { BaselineReleased, WorkPackageStatus } from '../../events/governance/index.js';
import { invalidState, notFound } from '../errors.js';
import { requireRole, Roles, type Caller } from './roles.js';
import { own } from '../../events/own.js';

/**
 * A baseline is released once. It may include only ACCEPTED work packages; ACCEPTED is final
 * (no command leaves it), so the packages' statuses read from their own streams cannot change
 * between that read and this append — the one place a rule looks across streams, safely.
 */
export type BaselineEvent = EventOf<typeof BaselineReleased>;
export type Baseline = { released: false } | ({ released: true } & BaselineEvent['data']);

export type BaselineCommand = {
  type: 'ReleaseBaseline';
  data: {
    by: Caller;
    project_id: string;
    baseline_id: string;
    work_package_ids: string[];
    notes: string | null;
    /** each included package's status, null when it does not exist */
    statuses: Record<string, WorkPackageStatus | null>;
  };
};

const decide = ({ data }: BaselineCommand, state: Baseline): BaselineEvent[] => {
  const { by, statuses, ...baseline } = data;
  requireRole(by, Roles.baseline, 'release a baseline');
  if (state.released)
    throw invalidState('baseline already released', { baseline_id: baseline.baseline_id });
  const ids = baseline.work_package_ids;
  const missing = ids.filter((id) => !own(statuses, id));
  if (missing.length > 0) throw notFound('work package not found', { work_package_ids: missing });
  const unaccepted = ids.filter((id) => own(statuses, id) !== 'ACCEPTED');
  if (unaccepted.length > 0)
    throw invalidState('a baseline includes only ACCEPTED work packages', {
      work_package_ids: unaccepted,
      statuses: Object.fromEntries(unaccepted.map((id) => [id, own(statuses, id)])),
    });
  return [{ type: 'baseline.released', data: { ...baseline, released_by: by.actor_id } }];
};

export const baselineDecider: Decider<Baseline, BaselineCommand, BaselineEvent> = {
  decide,
  evolve: (_state, event) => ({ released: true, ...event.data }),
  initialState: () => ({ released: false }),
};
