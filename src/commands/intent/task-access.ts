import type { Decider } from '@event-driven-io/emmett';
import type { Principal } from '../principal.js';
import { taskNotFound } from './errors.js';
import { decideTask, taskDecider, type TaskCommand } from './task.js';
import type { IntentEvent, TaskState } from './task-state.js';

/**
 * Who reaches an intent task: the principal that started it, and SYSTEM (the local user, the
 * operator). Anyone else is answered as if the task did not exist, so an answer never tells
 * whether another's task is there.
 */
export const mayReach = (owner: string, by: Principal): boolean =>
  by.kind === 'system' || (owner !== '' && owner === by.actor_id);

/** Throws TASK_NOT_FOUND for a task that exists but is not the caller's. */
export const checkReach = (state: Pick<TaskState, 'exists' | 'owner'>, by: Principal): void => {
  if (state.exists && !mayReach(state.owner, by)) throw taskNotFound();
};

/** The task decider as one principal sees it: another's task is no task at all. */
export const taskDeciderFor = (by: Principal): Decider<TaskState, TaskCommand, IntentEvent> => ({
  ...taskDecider,
  decide: (command, state) => {
    checkReach(state, by);
    return decideTask(command, state);
  },
});
