import type { RunEvent, StoryEvent } from '../../events/storymap/index.js';
import type { AppendMeta, EventLog } from '../../events/index.js';
import { runMultiStreamCommand, type CommandOutcome, type CommandStream } from '../handler.js';
import { requireCapability, type Caller } from './access.js';
import { storyStream } from './map-state.js';
import { nextInRun, type NextInRun, type StoryFact } from './run-next.js';
import { evolveRun, initialRun, runStream, type RunState } from './run-state.js';
import { evolveStory, initialStory, type StoryState } from './story-state.js';

type State = RunState | StoryState;
type Evt = RunEvent | StoryEvent;

const isRun = (s: State): s is RunState => 'handed_out' in s;
const isRunEvent = (e: Evt): e is RunEvent => e.type.startsWith('storymap.run_');

const foldRun = (s: State, e: Evt): State => (isRun(s) && isRunEvent(e) ? evolveRun(s, e) : s);
const foldStory = (s: State, e: Evt): State =>
  !isRun(s) && !isRunEvent(e) ? evolveStory(s, e) : s;

/** The run's stories as their own streams say, over what the read model knows (dependencies). */
const factsOf = (
  known: ReadonlyMap<string, StoryFact>,
  stories: readonly StoryState[],
): Map<string, StoryFact> => {
  const facts = new Map(known);
  for (const s of stories)
    if (s.exists)
      facts.set(s.story_id, {
        id: s.story_id,
        key: s.key,
        title: s.title,
        status: s.status,
        cancelled: s.cancelled !== null,
        depends_on: known.get(s.story_id)?.depends_on ?? [],
      });
  return facts;
};

/** The hand-out's events: the run records it, the story moves to in_progress. */
export const handOutEvents = (
  run: RunState,
  next: Extract<NextInRun, { kind: 'hand_out' }>,
  caller: Caller,
): { run: RunEvent[]; story: StoryEvent[] } => ({
  run: [
    {
      type: 'storymap.run_story_handed_out',
      data: {
        project_id: run.project_id,
        run_id: run.run_id,
        story_id: next.story.id,
        position: next.position,
        by: caller.actor_id,
      },
    },
  ],
  story: [
    {
      type: 'story.status_changed',
      data: {
        project_id: run.project_id,
        story_id: next.story.id,
        from: next.story.status,
        to: 'in_progress',
        by: caller.actor_id,
        via: 'mcp',
      },
    },
  ],
});

export type HandOut = {
  projectId: string;
  number: number;
  /** the run's stories, as the run's stream listed them when the service looked it up */
  storyIds: readonly string[];
  /** what the read model knows of every story of the project (dependencies, stories outside the run) */
  known: ReadonlyMap<string, StoryFact>;
  caller: Caller;
  meta: AppendMeta;
};

/**
 * next_in_run as one atomic decision over the run's stream and every one of its stories'
 * streams: the concurrency count and the chosen story's status are read where they are decided,
 * so two sessions asking at once never get the same story nor more than the run allows.
 */
export const handOut = (log: EventLog, h: HandOut): Promise<CommandOutcome<NextInRun>> => {
  const streams: CommandStream<State, Evt>[] = [
    { name: runStream(h.projectId, h.number), initialState: initialRun, evolve: foldRun },
    ...h.storyIds.map((id) => ({
      name: storyStream(h.projectId, id),
      initialState: initialStory,
      evolve: foldStory,
    })),
  ];
  let answer: NextInRun | undefined;
  return runMultiStreamCommand<State, Evt, NextInRun>(log, {
    streams,
    decide: (loaded) => {
      const [runLoaded, ...storiesLoaded] = loaded.map((l) => l.state);
      if (!runLoaded || !isRun(runLoaded)) throw new TypeError('a hand-out loads the run first');
      requireCapability(h.caller, 'edit');
      const stories = storiesLoaded.filter((s): s is StoryState => !isRun(s));
      answer = nextInRun(runLoaded, factsOf(h.known, stories));
      if (answer.kind !== 'hand_out') return streams.map(() => []);
      const events = handOutEvents(runLoaded, answer, h.caller);
      const chosen = answer.story.id;
      return [events.run, ...h.storyIds.map((id) => (id === chosen ? events.story : []))];
    },
    meta: h.meta,
    respond: () => answer!,
  });
};
