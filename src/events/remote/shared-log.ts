import type { Event, ReadStreamOptions, ReadStreamResult } from '@event-driven-io/emmett';
import type { LogReadEventMetadata } from '../event-log.js';
import { newId } from '../ids.js';
import { aggregateStreamOver, upcastRead } from '../stream-read.js';
import type { ModelStore } from '../model-store.js';
import type { LogOpArgs, LogOpName, LogOpResult } from './log-ops.js';
import { routeKeeper, type Elect } from './route-keeper.js';
import type { OpResult, Role, SharedEventLog, WriterOps } from './types.js';

/**
 * The EventLog a process holds, whatever its role: every call goes to the writer through the
 * current route, the same way in the writer's own process as in a follower, and survives a
 * takeover. Schema functions (Emmett upcast/downcast) run here, as they cannot cross a socket.
 */
export const sharedEventLog = async <Ops extends WriterOps>(
  elect: Elect,
): Promise<SharedEventLog<Ops>> => {
  const keeper = routeKeeper(elect);
  await keeper.ready();

  const run = async <K extends LogOpName>(
    op: K,
    args: LogOpArgs<K> | ((role: Role) => LogOpArgs<K>),
  ): Promise<LogOpResult<K>> =>
    (await keeper.invoke(op, typeof args === 'function' ? args : () => args)) as LogOpResult<K>;

  const readStream = async <E extends Event, P extends Event = E>(
    streamName: string,
    options?: ReadStreamOptions<bigint, E, P>,
  ) => {
    const { schema, ...wire } = options ?? {};
    const read = await run('log.readStream', { streamName, options: wire });
    const events = upcastRead(read.events, schema);
    if (events === read.events) return read as ReadStreamResult<E, LogReadEventMetadata>;
    return { ...read, events: events as never };
  };

  const models: ModelStore = {
    get: async <T>(key: string) => (await run('models.get', { key })) as T | undefined,
    getMany: async <T>(keys: string[]) =>
      (await run('models.getMany', { keys })) as (T | undefined)[],
    range: async <T>(range: Parameters<ModelStore['range']>[0]) =>
      (await run('models.range', range)) as [string, T][],
    write: (ops) => run('models.write', { ops }),
    clear: (prefix) => run('models.clear', { prefix }),
  };

  const foldRead = aggregateStreamOver(readStream);
  /**
   * In the writer's own process a whole-stream fold runs in the log itself, where it starts
   * from the state the fold last reached (fold-cache.ts); a follower folds what it reads.
   */
  const aggregateStream: SharedEventLog['aggregateStream'] = async (name, options) => {
    if (keeper.role() !== 'writer' || options.read) return foldRead(name, options);
    const folded = await run('log.aggregateStream', {
      streamName: name,
      options: options as never,
    });
    return folded as never;
  };

  return {
    readStream,
    aggregateStream,
    appendToStream: (streamName, events, options) => {
      const { schema, expectedStreamVersion, meta, idempotency } = options ?? {};
      const downcast = schema?.versioning?.downcast as ((e: Event) => Event) | undefined;
      const sent: Event[] = downcast ? events.map(downcast) : events;
      // A follower's append carries an id it chose, so a retry after a takeover is recognised
      // by the store if the first attempt had committed; the writer's own appends need none.
      let appendId = options?.appendId;
      return run('log.append', (role) => {
        if (role === 'follower') appendId ??= newId('append');
        const wire = { expectedStreamVersion, meta, idempotency, appendId };
        return { streamName, events: sent, options: wire };
      });
    },
    appendToStreams: (appends, options = {}) => {
      // as appendToStream: a follower's append carries an id, so a retry is not doubled
      let appendId = options.appendId;
      return run('log.appendToStreams', (role) => {
        if (role === 'follower') appendId ??= newId('append');
        return { appends, options: { ...options, appendId } };
      });
    },
    streamExists: (streamName) => run('log.streamExists', { streamName }),
    readAll: (page) => run('log.readAll', page),
    readProject: (projectId, page) => run('log.readProject', { projectId, page }),
    readRaw: (page) => run('log.readRaw', page),
    head: () => run('log.head', undefined),
    live: keeper.live,
    getIdempotency: (scope) => run('log.getIdempotency', { scope }),
    shred: (subject) => run('log.shred', { subject }),
    writeFault: async () => (await run('log.writeFault', undefined)) ?? undefined,
    models,
    snapshots: {
      get: async (name, stream) => (await run('snapshots.get', { name, stream })) ?? undefined,
      list: () => run('snapshots.list', undefined),
      count: () => run('snapshots.count', undefined),
      clear: () => run('snapshots.clear', undefined),
      settled: () => run('snapshots.settled', undefined),
    },
    close: keeper.close,
    call: async (op, args) => (await keeper.invoke(op, () => args)) as OpResult<Ops[typeof op]>,
    role: keeper.role,
  };
};
