import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { taskDeciderFor } from '../../src/commands/intent/task-access.js';
import type { IntentEvent } from '../../src/commands/intent/task-state.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { intentRef } from '../../src/events/intent/index.js';
import { NOW, P, T, added, claim, started, withCode } from './fixture.js';

/** The start event as the log hands it to a fold: with its envelope's actor. */
const startedBy = (actorId: string): IntentEvent => ({ ...started, metadata: { actorId } });
const alice = { kind: 'actor' as const, actor_id: 'alice' };
const bob = { kind: 'actor' as const, actor_id: 'bob' };
const add = { type: 'AddClaim' as const, data: { claim: claim('b', 'inferred'), now: NOW } };
const start = (associate_only: boolean) => ({
  type: 'StartTask' as const,
  data: {
    project_id: P,
    task_id: T,
    associate_only,
    host_session_hash: null,
    claims: [],
    now: NOW,
  },
});

describe('intent task access: a task is its starter’s', () => {
  it('lets the owner write', () =>
    deciderSpec(taskDeciderFor(alice))([startedBy('alice')])
      .when(add)
      .then([added(claim('b', 'inferred'))]));
  it('lets SYSTEM write on any task', () =>
    deciderSpec(taskDeciderFor(SYSTEM))([startedBy('alice')])
      .when(add)
      .then([added(claim('b', 'inferred'))]));
  it('answers another actor as for a task that does not exist', () =>
    deciderSpec(taskDeciderFor(bob))([startedBy('alice')])
      .when(add)
      .thenThrows(withCode('TASK_NOT_FOUND')));
  it('hides that another’s task was deleted', () =>
    deciderSpec(taskDeciderFor(bob))([
      startedBy('alice'),
      {
        type: 'intent.task_deleted',
        data: {
          project_id: P,
          task_ref: intentRef(T),
          claim_refs: [],
          candidate_ids: [],
          deleted_at: NOW,
        },
      },
    ])
      .when(add)
      .thenThrows(withCode('TASK_NOT_FOUND')));
  it('does not associate another actor with the task', () =>
    deciderSpec(taskDeciderFor(bob))([startedBy('alice')])
      .when(start(true))
      .thenThrows(withCode('TASK_NOT_FOUND')));
  it('starts no task under an id the caller named', () =>
    deciderSpec(taskDeciderFor(alice))([])
      .when(start(true))
      .thenThrows(withCode('TASK_NOT_FOUND')));
  it('reaches a task of unknown owner only as SYSTEM', () => {
    deciderSpec(taskDeciderFor(alice))([started]).when(add).thenThrows(withCode('TASK_NOT_FOUND'));
    deciderSpec(taskDeciderFor(SYSTEM))([started])
      .when(add)
      .then([added(claim('b', 'inferred'))]);
  });
});
