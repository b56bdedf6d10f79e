import type { Decider } from '@event-driven-io/emmett';
import type { Criterion, StoryPriority } from '../../events/storymap/index.js';
import { invalidArgument, invalidState, notFound } from '../errors.js';
import { requireCapability, storyMapError, type Caller } from './access.js';
import { sameWording } from './criteria.js';
import { evolveStory, initialStory, type StoryEvent, type StoryState } from './story-state.js';

/** Commands decided by one story's stream. Criteria arrive parsed, with fresh ids. */
export type StoryCommand =
  | { type: 'AddCriteria'; data: { criteria: Criterion[]; caller: Caller } }
  | {
      type: 'UpdateCriterion';
      data: {
        criterion_id: string;
        text?: string;
        priority?: StoryPriority;
        expected_version?: number;
        caller: Caller;
      };
    }
  | {
      type: 'ReplaceCriteria';
      data: { criteria: Criterion[]; expected_version?: number; caller: Caller };
    }
  | { type: 'AddNote'; data: { note: string; caller: Caller } }
  | { type: 'FounderMark'; data: { to: 'ready_for_dev' | 'approved'; caller: Caller } };

export const BUILT = new Set(['done', 'approved']);

export const requireStory = (state: StoryState, ref: string): StoryState => {
  if (!state.exists) throw notFound(`No story found matching "${ref}"`, { story_id: ref });
  return state;
};

/** A client's `expected_version` against the story's own stream version. */
export const checkVersion = (state: StoryState, expected: number | undefined): void => {
  if (expected === undefined || expected === state.version) return;
  throw storyMapError(
    'VERSION_CONFLICT',
    `VERSION_CONFLICT: ${state.key} is at version ${state.version}, not ${expected}. Read it again and retry.`,
    {
      stale_stories: [
        {
          id: state.story_id,
          key: state.key,
          expected_version: expected,
          current_version: state.version,
        },
      ],
    },
  );
};

const on = (state: StoryState) => ({ project_id: state.project_id, story_id: state.story_id });

const updateCriterion = (
  state: StoryState,
  data: Extract<StoryCommand, { type: 'UpdateCriterion' }>['data'],
): StoryEvent[] => {
  const { criterion_id, text, priority, caller } = data;
  if (text === undefined && priority === undefined)
    throw invalidArgument('Nothing to change: pass text or priority.');
  if (text !== undefined && text.trim() === '')
    throw invalidArgument('text must be a non-empty string', { field: 'text' });
  const current = state.criteria.find((c) => c.criterion_id === criterion_id);
  if (!current)
    throw notFound(`No criterion ${criterion_id} on ${state.key}.`, {
      criterion_id,
      valid_ids: state.criteria.map((c) => c.criterion_id),
    });
  checkVersion(state, data.expected_version);
  const changes = {
    ...(text !== undefined && text.trim() !== current.text ? { text: text.trim() } : {}),
    ...(priority !== undefined && priority !== current.priority ? { priority } : {}),
  };
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'criterion.updated',
      data: { ...on(state), criterion_id, ...changes, by: caller.actor_id },
    },
  ];
};

/** On a built story a criterion worded as an old one keeps the old id (and so its result). */
const replaceCriteria = (
  state: StoryState,
  data: Extract<StoryCommand, { type: 'ReplaceCriteria' }>['data'],
): StoryEvent[] => {
  checkVersion(state, data.expected_version);
  const old = [...state.criteria];
  const kept: string[] = [];
  const criteria = data.criteria.map((c) => {
    if (!BUILT.has(state.status)) return c;
    const match = old.findIndex((o) => sameWording(o.text, c.text));
    if (match < 0) return c;
    const [previous] = old.splice(match, 1);
    kept.push(previous!.criterion_id);
    return { ...c, criterion_id: previous!.criterion_id };
  });
  const removed = old.map((c) => c.criterion_id);
  return [
    {
      type: 'criteria.replaced',
      data: { ...on(state), criteria, removed, kept, by: data.caller.actor_id },
    },
  ];
};

const FOUNDER_FROM = {
  ready_for_dev: ['todo', 'needs_rework'],
  approved: ['done'],
} as const;

const founderMark = (
  state: StoryState,
  data: Extract<StoryCommand, { type: 'FounderMark' }>['data'],
): StoryEvent[] => {
  requireCapability(data.caller, 'own');
  if (state.cancelled)
    throw invalidState(`${state.key} was cancelled; uncancel it first.`, {
      story_id: state.story_id,
    });
  if (state.status === data.to) return [];
  const from: readonly string[] = FOUNDER_FROM[data.to];
  if (!from.includes(state.status))
    throw invalidState(
      `${state.key} is ${state.status}; ${data.to} needs a story that is ${from.join(' or ')}.`,
      {
        status: state.status,
        allowed_from: from,
      },
    );
  return [
    {
      type: 'story.status_changed',
      data: {
        ...on(state),
        from: state.status,
        to: data.to,
        by: data.caller.actor_id,
        via: 'founder_cli',
      },
    },
  ];
};

export const decideStory = (command: StoryCommand, state: StoryState): StoryEvent[] => {
  requireStory(state, state.story_id);
  switch (command.type) {
    case 'AddCriteria':
      requireCapability(command.data.caller, 'edit');
      if (command.data.criteria.length === 0)
        throw invalidArgument('criteria must list at least one criterion');
      return [
        {
          type: 'criteria.added',
          data: { ...on(state), criteria: command.data.criteria, by: command.data.caller.actor_id },
        },
      ];
    case 'UpdateCriterion':
      requireCapability(command.data.caller, 'edit');
      return updateCriterion(state, command.data);
    case 'ReplaceCriteria':
      requireCapability(command.data.caller, 'edit');
      return replaceCriteria(state, command.data);
    case 'AddNote': {
      requireCapability(command.data.caller, 'comment');
      const note = command.data.note.trim();
      if (!note) throw invalidArgument('note must be a non-empty string', { field: 'note' });
      return [
        {
          type: 'story.note_added',
          data: { ...on(state), note, by: command.data.caller.actor_id },
        },
      ];
    }
    case 'FounderMark':
      return founderMark(state, command.data);
  }
};

export const storyDecider: Decider<StoryState, StoryCommand, StoryEvent> = {
  decide: decideStory,
  evolve: evolveStory,
  initialState: initialStory,
};
