import type { MapEvent, SessionEvent } from '../../events/storymap/index.js';
import { streamName, type AppendMeta, type EventLog } from '../../events/index.js';
import { invalidState } from '../errors.js';
import { runMultiStreamCommand, type CommandOutcome, type CommandStream } from '../handler.js';
import type { Caller } from './access.js';
import { releaseClaim, type SessionRef } from './build-claim.js';
import { evolveMap, initialMap, mapStream, storyStream, type MapState } from './map-state.js';
import { evolveStory, initialStory, type StoryEvent, type StoryState } from './story-state.js';

/**
 * One MCP session's stream in a project: the story it claimed last. "One story per session" is
 * decided under this stream's version, so a session starting two stories at once gets one;
 * whether it still holds that story is the story's own claim (a takeover or completion ends it).
 */
export type SessionState = { kind: 'session'; story_id: string | null };

export const sessionStream = (projectId: string, sessionId: string): string =>
  streamName({ aggregateType: 'story_session', projectId, aggregateId: sessionId });

type State = SessionState | StoryState | MapState;
type Evt = SessionEvent | StoryEvent | MapEvent;

const isSession = (s: State): s is SessionState => 'kind' in s && s.kind === 'session';
const isMap = (s: State): s is MapState => 'next_key' in s;
const isStory = (s: State): s is StoryState => !isSession(s) && !isMap(s);

const isSessionEvent = (e: Evt): e is SessionEvent => e.type.startsWith('story_session.');
const isMapEvent = (e: Evt): e is MapEvent => e.type.startsWith('storymap.');

// One evolve per kind of stream for the process: the store's fold cache is keyed by them.
const foldSession = (s: State, e: Evt): State =>
  isSession(s) && isSessionEvent(e) ? { ...s, story_id: e.data.story_id } : s;
const foldStory = (s: State, e: Evt): State =>
  isStory(s) && !isMapEvent(e) && !isSessionEvent(e) ? evolveStory(s, e) : s;
const foldMap = (s: State, e: Evt): State => (isMap(s) && isMapEvent(e) ? evolveMap(s, e) : s);

const initialSession = (): State => ({ kind: 'session', story_id: null });

export const loadSession = async (log: EventLog, projectId: string, sessionId: string) =>
  (
    await log.aggregateStream<State, Evt>(sessionStream(projectId, sessionId), {
      evolve: foldSession,
      initialState: initialSession,
    })
  ).state as SessionState;

/** The session moved on between the first look and the decision: look again. */
class Replan extends Error {}

export type ClaimingRun<R> = {
  projectId: string;
  storyId: string;
  session: SessionRef;
  releaseCurrent: boolean;
  caller: Caller;
  now: string;
  /** the map is written too: a story with no build sequence goes to the end of the order */
  sequenceAtEnd: boolean;
  meta: AppendMeta;
  /** the story's events (a start, or a first report that starts it) */
  decide(story: StoryState): StoryEvent[];
  respond(story: StoryState, events: readonly StoryEvent[], released: StoryState | null): R;
};

const stream = (name: string, evolve: CommandStream<State, Evt>['evolve'], init: () => State) => ({
  name,
  evolve,
  initialState: init,
});

const heldElsewhere = (held: StoryState, run: ClaimingRun<unknown>): StoryEvent[] => {
  if (held.build.claim?.session_id !== run.session.session_id) return [];
  if (!run.releaseCurrent)
    throw invalidState(
      `This session already holds ${held.key} (${held.title}). Complete it, or pass release_current: true to put it back and start this one.`,
      { held: { story_id: held.story_id, key: held.key, title: held.title } },
    );
  return releaseClaim(held, run.session.session_id, run.caller.actor_id, run.now, 'released');
};

const attempt = <R>(log: EventLog, run: ClaimingRun<R>, held: string | null) => {
  const streams = [
    stream(sessionStream(run.projectId, run.session.session_id), foldSession, initialSession),
    stream(storyStream(run.projectId, run.storyId), foldStory, initialStory),
    ...(held ? [stream(storyStream(run.projectId, held), foldStory, initialStory)] : []),
    ...(run.sequenceAtEnd ? [stream(mapStream(run.projectId), foldMap, initialMap)] : []),
  ];
  let released: StoryState | null = null;
  return runMultiStreamCommand<State, Evt, R>(log, {
    streams,
    meta: run.meta,
    decide: (loaded) => {
      const [session, story, ...rest] = loaded.map((l) => l.state);
      const now = isSession(session!) ? session.story_id : null;
      if ((now === run.storyId ? null : now) !== held) throw new Replan();
      const heldStory = held ? (rest[0] as StoryState) : null;
      const releasing = heldStory ? heldElsewhere(heldStory, run) : [];
      released = releasing.length > 0 ? heldStory : null;
      const events = run.decide(story as StoryState);
      const claimed = events.some((e) => e.type === 'story.claimed');
      const sessionEvents: SessionEvent[] = claimed
        ? [
            {
              type: 'story_session.claimed',
              data: {
                project_id: run.projectId,
                session_id: run.session.session_id,
                story_id: run.storyId,
                at: run.now,
              },
            },
          ]
        : [];
      const map = run.sequenceAtEnd ? (rest[rest.length - 1] as MapState) : null;
      const mapEvents: MapEvent[] =
        map && claimed && !map.sequence.has(run.storyId)
          ? [
              {
                type: 'storymap.build_sequence_set',
                data: {
                  project_id: run.projectId,
                  story_id: run.storyId,
                  build_sequence: Math.max(0, ...map.sequence.values()) + 1,
                },
              },
            ]
          : [];
      return [
        sessionEvents,
        events,
        ...(held ? [releasing] : []),
        ...(run.sequenceAtEnd ? [mapEvents] : []),
      ];
    },
    respond: (states, events) =>
      run.respond(states[1] as StoryState, events[1] as StoryEvent[], released),
  });
};

/**
 * A claim decided over the session's stream, the story's, the story the session held before
 * (released with release_current) and, for an unsequenced story, the map's — one atomic
 * append, every stream at the version it was read at. Racing sessions: one claim wins, the
 * others re-decide and are told who holds the story.
 */
export const runClaiming = async <R>(
  log: EventLog,
  run: ClaimingRun<R>,
): Promise<CommandOutcome<R>> => {
  for (let tries = 0; ; tries++) {
    const session = await loadSession(log, run.projectId, run.session.session_id);
    const held = session.story_id === run.storyId ? null : session.story_id;
    try {
      return await attempt(log, run, held);
    } catch (error) {
      if (!(error instanceof Replan) || tries >= 10) throw error;
    }
  }
};
