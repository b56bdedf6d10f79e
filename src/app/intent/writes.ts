import { isDomainError } from '../../commands/errors.js';
import { runCommand } from '../../commands/handler.js';
import { fingerprint, idempotencyScope } from '../../commands/idempotency.js';
import { intentError } from '../../commands/intent/errors.js';
import {
  decideTask,
  taskDecider,
  type Route,
  type TaskCommand,
} from '../../commands/intent/task.js';
import { checkReach, taskDeciderFor } from '../../commands/intent/task-access.js';
import type { IntentEvent, TaskState } from '../../commands/intent/task-state.js';
import { principalId, type Principal } from '../../commands/principal.js';
import { streamName, type AppendMeta, type EventLog } from '../../events/index.js';
import { intentRef } from '../../events/intent/index.js';
import type { PrivateStore } from './private.js';

/**
 * A task's stream: one per task, inside its project, named by the task's ref (intentRef) so its
 * name (every record's stream_name and aggregate_id, the stream index's keys) holds no id.
 */
export const taskStream = (projectId: string, taskId: string): string =>
  streamName({ aggregateType: 'intent_task', projectId, aggregateId: intentRef(taskId) });
/** The stream a task started before refs is in: named by its id. */
export const legacyTaskStream = (projectId: string, taskId: string): string =>
  streamName({ aggregateType: 'intent_task', projectId, aggregateId: taskId });

// Streams known to exist, per log: a task's stream never changes once it has events.
const known = new WeakMap<EventLog, Map<string, string>>();
const KNOWN_KEPT = 10_000;
const hasEvents = async (log: EventLog, stream: string) =>
  (await log.readStream(stream, { to: 1n })).events.length > 0;

/** The stream a task is in: its ref stream, or the legacy one a task started before refs has. */
export const taskStreamOf = async (log: EventLog, p: string, t: string): Promise<string> => {
  const cache = known.get(log) ?? new Map<string, string>();
  known.set(log, cache);
  const key = `${p}\0${t}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const byRef = taskStream(p, t);
  const legacy = legacyTaskStream(p, t);
  const found = (await hasEvents(log, byRef))
    ? byRef
    : (await hasEvents(log, legacy))
      ? legacy
      : undefined;
  if (found === undefined) return byRef; // a task not started yet: by ref
  if (cache.size >= KNOWN_KEPT) cache.clear();
  cache.set(key, found);
  const stream = found;
  return stream;
};

/** What a caller is told when the task is off: not an error, nothing read or written. */
export type OffStatus = { mode: 'off'; accepted: false; message: string };
export const offStatus = (): OffStatus => ({
  mode: 'off',
  accepted: false,
  message: 'intent recording is off for this task; set the mode to on to record or read intent',
});

export type Written<R> =
  | { kind: 'written'; result: R; position: number; replayed: boolean }
  | { kind: 'off'; status: OffStatus };

export type WriteCall<R> = {
  project_id: string;
  task_id: string;
  operation: string;
  args: Record<string, unknown>;
  request_id?: string | undefined;
  /** who calls: a task is reached by its owner and SYSTEM only (task-access.ts) */
  principal: Principal;
  /** the envelope's actor_id when it is not the principal's id (Hooks write as `hook`) */
  actor_id?: string;
  /** control writes (start, mode, delete) always go to the log, whatever the mode */
  persist?: boolean;
  command: (route: Route) => TaskCommand;
  respond: (state: TaskState, events: IntentEvent[]) => R;
};

const metaOf = (call: WriteCall<unknown>): AppendMeta => ({
  actor_id: call.actor_id ?? principalId(call.principal),
  actor_role: 'INTENT',
  correlation_id: null,
  causation_event_id: null,
});

/** Loads a task from the log alone: what is on disk, never a private claim. */
export const loadLogTask = async (log: EventLog, stream: string) =>
  (
    await log.aggregateStream(stream, {
      evolve: taskDecider.evolve,
      initialState: taskDecider.initialState,
    })
  ).state;

/** Loads a task from the log, then folds this process's private events on top. */
export const loadTask = async (log: EventLog, stream: string, store: PrivateStore) =>
  (store.get(stream)?.events ?? []).reduce(taskDecider.evolve, await loadLogTask(log, stream));

/** A request's idempotency key: scoped to the project and the calling principal. */
const keyOf = (call: WriteCall<unknown>, key: string) => ({
  key,
  projectId: call.project_id,
  callerId: principalId(call.principal),
});

const printOf = (call: WriteCall<unknown>) => ({
  operation: call.operation,
  args: call.args,
  reusedCode: 'REQUEST_ID_REUSED',
});

const requestIdReused = () =>
  intentError('REQUEST_ID_REUSED', 'this request_id was used with different arguments');

const reused = (error: unknown): never => {
  throw isDomainError(error) && error.details.reason === 'key_reused' ? requestIdReused() : error;
};

/**
 * The write path of the intent surface: to the log (with `request_id` deduplicated in the
 * same atomic append, across processes), or, for a private task, to this process's memory.
 * The decider refuses a route the task's mode does not allow; the answer says where to go.
 */
export const intentWrites = (log: EventLog, store: PrivateStore) => {
  const toLog = async <R>(call: WriteCall<R>, stream: string): Promise<Written<R>> => {
    const outcome = await runCommand(log, {
      decider: taskDeciderFor(call.principal),
      stream,
      command: call.command('log'),
      meta: metaOf(call),
      ...(call.request_id === undefined
        ? {}
        : { idempotency: { ...keyOf(call, call.request_id), ...printOf(call) } }),
      respond: call.respond,
    }).catch(reused);
    return { kind: 'written', ...outcome };
  };

  /**
   * A private write: decided against the log's part and this process's private events. The
   * caller is checked first, and its stored answers are kept by the same scope (project,
   * caller, request_id) as the log's idempotency records.
   */
  const toMemory = <R>(call: WriteCall<R>, stream: string): Promise<Written<R>> =>
    store.serially(stream, async () => {
      const task = store.get(stream);
      if (!task) throw intentError('PRIVATE_STATE_UNAVAILABLE', 'private state was lost');
      const state = await loadTask(log, stream, store);
      checkReach(state, call.principal);
      const key =
        call.request_id === undefined ? undefined : idempotencyScope(keyOf(call, call.request_id));
      const print = fingerprint(call.operation, call.args);
      const prior = key === undefined ? undefined : task.requests.get(key);
      if (prior && prior.fingerprint !== print) throw requestIdReused();
      if (prior)
        return { kind: 'written', result: prior.response as R, position: 0, replayed: true };
      const decided = decideTask(call.command('memory'), state);
      task.events.push(...decided);
      const result = call.respond(decided.reduce(taskDecider.evolve, state), decided);
      if (key !== undefined) task.requests.set(key, { fingerprint: print, response: result });
      return { kind: 'written', result, position: 0, replayed: false };
    });

  /** Tries the route this process expects, then the one the task's mode names. */
  const write = async <R>(call: WriteCall<R>): Promise<Written<R>> => {
    const stream = await taskStreamOf(log, call.project_id, call.task_id);
    const first: Route = !call.persist && store.get(stream) ? 'memory' : 'log';
    try {
      return await (first === 'memory' ? toMemory(call, stream) : toLog(call, stream));
    } catch (error) {
      if (!(isDomainError(error) && error.details.code === 'MODE_CHANGED')) throw error;
      const mode = error.details.mode;
      if (mode === 'off') return { kind: 'off', status: offStatus() };
      if (mode === 'on' && first === 'memory') {
        store.drop(stream);
        return toLog(call, stream);
      }
      throw intentError(
        'PRIVATE_STATE_UNAVAILABLE',
        'the task is private and this process holds none of its private state (a restart ' +
          'loses it by design); set the mode to on or off to continue',
        { mode },
      );
    }
  };

  return { write };
};
