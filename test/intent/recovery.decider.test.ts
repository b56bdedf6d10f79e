import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { taskDecider } from '../../src/commands/intent/task.js';
import type { IntentEvent } from '../../src/commands/intent/task-state.js';
import { taskSubject } from '../../src/events/intent/index.js';
import { LATER, NOW, P, T, started, withCode } from './fixture.js';

const given = deciderSpec(taskDecider);
const onTask = { project_id: P, task_id: T };
const flag = (state: 'verified' | 'unverified', now = NOW) => ({
  type: 'FlagRecovery' as const,
  data: { now, state },
});
const serve = { type: 'ServeRecovery' as const, data: { now: LATER } };
const flagged = (state: 'verified' | 'unverified', at = NOW): IntentEvent => ({
  type: 'intent.recovery_flagged',
  metadata: { seal: taskSubject(T) },
  data: { ...onTask, state, flagged_at: at },
});
const served: IntentEvent = {
  type: 'intent.recovery_served',
  metadata: { seal: taskSubject(T) },
  data: { ...onTask, served_at: LATER },
};
const mode = (m: 'private' | 'off'): IntentEvent => ({
  type: 'intent.mode_set',
  metadata: { seal: taskSubject(T) },
  data: { ...onTask, mode: m, marker_hash: m === 'private' ? 'h' : null, set_at: NOW },
});

describe('intent task decider: the post-compact recovery flag', () => {
  it('flags a task that records, with what the check found', () =>
    given([started])
      .when(flag('verified'))
      .then([flagged('verified')]));
  it('keeps a flag already up, and lets a failed check worsen a verified one', () => {
    given([started, flagged('verified')])
      .when(flag('verified', LATER))
      .thenNothingHappened();
    given([started, flagged('unverified')])
      .when(flag('verified', LATER))
      .thenNothingHappened();
    given([started, flagged('verified')])
      .when(flag('unverified', LATER))
      .then([flagged('unverified', LATER)]);
  });
  it('flags again after the flag was served', () =>
    given([started, flagged('verified'), served])
      .when(flag('verified', LATER))
      .then([flagged('verified', LATER)]));
  it('refuses a flag while the task is private or off (Hooks are suppressed there)', () => {
    given([started, mode('private')])
      .when(flag('verified'))
      .thenThrows(withCode('MODE_CHANGED'));
    given([started, mode('off')])
      .when(flag('verified'))
      .thenThrows(withCode('MODE_CHANGED'));
  });
  it('serves a flag once; with none up, serving writes nothing', () => {
    given([started, flagged('verified')])
      .when(serve)
      .then([served]);
    given([started, flagged('verified'), served])
      .when(serve)
      .thenNothingHappened();
    given([started]).when(serve).thenNothingHappened();
  });
  it('refuses both on a task that was never started', () => {
    given([]).when(flag('verified')).thenThrows(withCode('TASK_NOT_FOUND'));
    given([]).when(serve).thenThrows(withCode('TASK_NOT_FOUND'));
  });
});
