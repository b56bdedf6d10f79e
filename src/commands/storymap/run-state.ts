import { Snapshots } from '../snapshots.js';
import type { RunEvent, RunOnFailure } from '../../events/storymap/index.js';
import { streamName } from '../../events/index.js';

export type { RunEvent };

/** What the founder has said of a run; complete, full and waiting are read off its stories. */
export type RunStatus = 'draft' | 'approved' | 'paused' | 'stopped' | 'cancelled';

/** One build run as its own stream decides it. */
export type RunState = {
  exists: boolean;
  project_id: string;
  run_id: string;
  number: number;
  key: string;
  title: string;
  /** the stories the founder put in the run, in the order given */
  story_ids: readonly string[];
  concurrency: number;
  on_failure: RunOnFailure;
  status: RunStatus;
  reason: string | null;
  /** every hand-out, oldest first (a story put back and handed out again appears twice) */
  handed_out: readonly string[];
};

/** A run's stream is named by its number, so two runs racing for a number cannot both get it. */
export const runStream = (projectId: string, number: number): string =>
  streamName({ aggregateType: 'storymap.run', projectId, aggregateId: String(number) });

export const runKey = (number: number): string => `R-${number}`;

export const initialRun = (): RunState => ({
  exists: false,
  project_id: '',
  run_id: '',
  number: 0,
  key: '',
  title: '',
  story_ids: [],
  concurrency: 1,
  on_failure: 'stop',
  status: 'draft',
  reason: null,
  handed_out: [],
});

export const evolveRun = (state: RunState, event: RunEvent): RunState => {
  switch (event.type) {
    case 'storymap.run_created': {
      const { by: _by, ...run } = event.data;
      return { ...state, ...run, exists: true, status: 'draft' };
    }
    case 'storymap.run_approved':
    case 'storymap.run_resumed':
      return { ...state, status: 'approved', reason: null };
    case 'storymap.run_paused':
      return { ...state, status: 'paused', reason: event.data.reason };
    case 'storymap.run_stopped':
      return { ...state, status: 'stopped', reason: event.data.reason };
    case 'storymap.run_cancelled':
      return { ...state, status: 'cancelled', reason: event.data.reason };
    case 'storymap.run_story_handed_out':
      return { ...state, handed_out: [...state.handed_out, event.data.story_id] };
  }
};

/** A run's stream keeps persisted snapshots (bump the version when evolve or the state changes). */
Snapshots.declare({
  name: 'storymap.run',
  version: 1,
  evolve: evolveRun,
  initialState: initialRun,
});
