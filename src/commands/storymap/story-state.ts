import { Snapshots } from '../snapshots.js';
import type {
  Criterion,
  Effort,
  StoryEvent,
  StoryPriority,
  StoryStatus,
} from '../../events/storymap/index.js';
import { evolveBuildState } from './build-state-fold.js';
import { initialBuildState, type BuildState } from './build-state.js';

export type { StoryEvent };

/** One story as its own stream decides it; `version` is the stream's version. */
export type StoryState = {
  exists: boolean;
  version: number;
  project_id: string;
  story_id: string;
  key: string;
  title: string;
  activity: string;
  as_a: string | null;
  i_want: string | null;
  so_that: string | null;
  priority: StoryPriority;
  effort: Effort;
  release_order: number;
  sort_order: number | null;
  status: StoryStatus;
  cancelled: { reason: string | null } | null;
  notes: string | null;
  implementation_summary: string | null;
  implemented_files: string[];
  criteria: Criterion[];
  /** claim, plan, tests, results, blockers: the building loop's record */
  build: BuildState;
};

export const initialStory = (): StoryState => ({
  exists: false,
  version: 0,
  project_id: '',
  story_id: '',
  key: '',
  title: '',
  activity: '',
  as_a: null,
  i_want: null,
  so_that: null,
  priority: 'should',
  effort: 'M',
  release_order: 1,
  sort_order: null,
  status: 'todo',
  cancelled: null,
  notes: null,
  implementation_summary: null,
  implemented_files: [],
  criteria: [],
  build: initialBuildState(),
});

/** Notes append after a blank line (contracts/storymap.md, add_note). */
export const appendNote = (notes: string | null, note: string): string =>
  notes ? `${notes}\n\n${note}` : note;

const apply = (state: StoryState, event: StoryEvent): StoryState => {
  switch (event.type) {
    case 'story.created': {
      const { source: _s, by: _b, ...story } = event.data;
      return { ...state, ...story, exists: true };
    }
    case 'story.revised':
      return { ...state, ...event.data.changes };
    case 'story.status_changed':
      return { ...state, status: event.data.to };
    case 'story.cancelled':
      return { ...state, cancelled: { reason: event.data.reason } };
    case 'story.uncancelled':
      return { ...state, cancelled: null, status: event.data.status };
    case 'story.note_added':
      return { ...state, notes: appendNote(state.notes, event.data.note) };
    case 'criteria.added':
      return { ...state, criteria: [...state.criteria, ...event.data.criteria] };
    case 'criterion.updated': {
      const { criterion_id, text, priority } = event.data;
      const criteria = state.criteria.map((c) =>
        c.criterion_id !== criterion_id
          ? c
          : { ...c, ...(text !== undefined ? { text } : {}), ...(priority ? { priority } : {}) },
      );
      return { ...state, criteria };
    }
    case 'criteria.replaced':
      return { ...state, criteria: event.data.criteria };
    case 'story.completed':
      return {
        ...state,
        implementation_summary: event.data.summary,
        implemented_files: event.data.implemented_files,
      };
    // story.plan_changed: the map holds the graph and the sequence; here it moves only the
    // version. The building loop's events fold into the building record (storymap-build-fold).
    default:
      return state;
  }
};

export const evolveStory = (state: StoryState, event: StoryEvent): StoryState => ({
  ...apply(state, event),
  build: evolveBuildState(state.build, event),
  version: state.version + 1,
});

/** A story's stream keeps persisted snapshots (bump the version when evolve or the state changes). */
Snapshots.declare({
  name: 'storymap.story',
  version: 1,
  evolve: evolveStory,
  initialState: initialStory,
});
