import { intentError } from './errors.js';
import type { IntentEvent, RecoveryFlag, TaskState } from './task-state.js';

/**
 * The recovery flag of a task (contracts/intent.md, "hook post-compact: verify state and flag
 * recovery for the next SessionStart"). Control metadata, no content: raised only while the
 * task records (mode on; Hooks are suppressed otherwise), served once.
 */
export type RecoveryCommand =
  | { type: 'FlagRecovery'; data: { now: string; state: RecoveryFlag['state'] } }
  | { type: 'ServeRecovery'; data: { now: string } };

const onTask = (state: TaskState) => ({ project_id: state.project_id, task_id: state.task_id });

export const decideRecovery = (command: RecoveryCommand, state: TaskState): IntentEvent[] => {
  if (command.type === 'ServeRecovery')
    return state.recovery === null
      ? []
      : [
          {
            type: 'intent.recovery_served',
            data: { ...onTask(state), served_at: command.data.now },
          },
        ];
  if (state.mode !== 'on')
    throw intentError('MODE_CHANGED', `the task is in mode ${state.mode}`, { mode: state.mode });
  // a second compaction before the next SessionStart keeps the first flag, unless it got worse
  if (state.recovery !== null && state.recovery.state !== 'verified') return [];
  if (state.recovery?.state === command.data.state) return [];
  return [
    {
      type: 'intent.recovery_flagged',
      data: { ...onTask(state), state: command.data.state, flagged_at: command.data.now },
    },
  ];
};
