import type { Decider } from '@event-driven-io/emmett';
import type { RunOnFailure } from '../../events/storymap/index.js';
import { conflict, invalidArgument, invalidState, notFound } from '../errors.js';
import { requireCapability, type Caller } from './access.js';
import {
  evolveRun,
  initialRun,
  runKey,
  type RunEvent,
  type RunState,
  type RunStatus,
} from './run-state.js';

/** The most stories a run hands out at once: more sessions than this is no longer one founder's run. */
export const MAX_CONCURRENCY = 32;

/** The founder's commands on a run. Story ids arrive resolved (facts the decider cannot know). */
export type RunCommand =
  | {
      type: 'CreateRun';
      data: {
        project_id: string;
        run_id: string;
        number: number;
        title: string;
        story_ids: string[];
        concurrency: number;
        on_failure: RunOnFailure;
        caller: Caller;
      };
    }
  | {
      type: 'ApproveRun' | 'PauseRun' | 'ResumeRun' | 'StopRun' | 'CancelRun';
      data: { reason?: string | null; caller: Caller };
    };

/** The stream for this number already holds a run: the service tries the next number. */
export const RUN_NUMBER_TAKEN = 'run number taken';

const create = (
  state: RunState,
  data: Extract<RunCommand, { type: 'CreateRun' }>['data'],
): RunEvent[] => {
  requireCapability(data.caller, 'own');
  if (state.exists) throw conflict(RUN_NUMBER_TAKEN, { number: data.number });
  const title = data.title.trim();
  if (!title) throw invalidArgument('title must be a non-empty string', { field: 'title' });
  if (data.story_ids.length === 0)
    throw invalidArgument('a run needs at least one story', { field: 'stories' });
  const twice = data.story_ids.filter((id, i) => data.story_ids.indexOf(id) !== i);
  if (twice.length > 0)
    throw invalidArgument('a story appears twice in the run', {
      field: 'stories',
      story_ids: twice,
    });
  if (
    !Number.isInteger(data.concurrency) ||
    data.concurrency < 1 ||
    data.concurrency > MAX_CONCURRENCY
  )
    throw invalidArgument(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`, {
      field: 'concurrency',
      concurrency: data.concurrency,
    });
  const { caller, ...run } = data;
  return [
    {
      type: 'storymap.run_created',
      data: { ...run, title, key: runKey(data.number), by: caller.actor_id },
    },
  ];
};

/** Which statuses each founder command leaves from; the status it reaches is a no-op. */
const MOVES = {
  ApproveRun: { to: 'approved', from: ['draft'], hint: 'a draft is approved once' },
  PauseRun: { to: 'paused', from: ['approved'], hint: 'approve the run first' },
  ResumeRun: { to: 'approved', from: ['paused'], hint: 'only a paused run resumes' },
  StopRun: { to: 'stopped', from: ['approved', 'paused'], hint: 'cancel a draft instead' },
  CancelRun: {
    to: 'cancelled',
    from: ['draft', 'approved', 'paused'],
    hint: 'a stopped run is over',
  },
} as const satisfies Record<string, { to: RunStatus; from: readonly RunStatus[]; hint: string }>;

const move = (
  state: RunState,
  type: keyof typeof MOVES,
  data: { reason?: string | null; caller: Caller },
): RunEvent[] => {
  requireCapability(data.caller, 'own');
  const rule = MOVES[type];
  // resume lands on approved, as approve does: only an unpaused approved run is "already there"
  if (state.status === rule.to && type !== 'ResumeRun') return [];
  const from: readonly RunStatus[] = rule.from;
  if (!from.includes(state.status))
    throw invalidState(`${state.key} is ${state.status}: ${rule.hint}.`, {
      run: state.key,
      status: state.status,
      allowed_from: from,
    });
  const on = { project_id: state.project_id, run_id: state.run_id, by: data.caller.actor_id };
  const reason = data.reason?.trim() || null;
  switch (type) {
    case 'ApproveRun':
      return [{ type: 'storymap.run_approved', data: on }];
    case 'ResumeRun':
      return [{ type: 'storymap.run_resumed', data: on }];
    case 'PauseRun':
      return [{ type: 'storymap.run_paused', data: { ...on, reason } }];
    case 'StopRun':
      return [{ type: 'storymap.run_stopped', data: { ...on, reason } }];
    case 'CancelRun':
      return [{ type: 'storymap.run_cancelled', data: { ...on, reason } }];
  }
};

export const decideRun = (command: RunCommand, state: RunState): RunEvent[] => {
  if (command.type === 'CreateRun') return create(state, command.data);
  if (!state.exists) throw notFound('No run matches', {});
  return move(state, command.type, command.data);
};

export const runDecider: Decider<RunState, RunCommand, RunEvent> = {
  decide: decideRun,
  evolve: evolveRun,
  initialState: initialRun,
};
