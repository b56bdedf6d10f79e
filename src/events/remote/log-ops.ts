import type { AggregateStreamOptions, Event, ExpectedStreamVersion } from '@event-driven-io/emmett';
import type {
  EventLog,
  LogAppendOptions,
  LogReadEventMetadata,
  MultiAppendOptions,
  ReadPage,
  StreamAppend,
} from '../event-log.js';
import type { ModelOp, ModelRange } from '../model-store.js';

/** Read options as they cross the socket: the schema functions stay with the caller. */
export type WireReadOptions = {
  from?: bigint;
  to?: bigint;
  maxCount?: bigint;
  expectedStreamVersion?: ExpectedStreamVersion<bigint>;
};
export type WireAppendOptions = Pick<
  LogAppendOptions,
  'expectedStreamVersion' | 'meta' | 'idempotency' | 'appendId'
>;

/**
 * The log's own ops, served by the writer. A follower's EventLog methods send exactly these;
 * the writer's own calls run them in-process, so both take one path.
 */
export const logOps = {
  'log.append': (
    log: EventLog,
    a: { streamName: string; events: Event[]; options: WireAppendOptions },
  ) => log.appendToStream(a.streamName, a.events, a.options),
  'log.appendToStreams': (
    log: EventLog,
    a: { appends: readonly StreamAppend[]; options: MultiAppendOptions },
  ) => log.appendToStreams(a.appends, a.options),
  // Only ever run in the writer's own process (shared-log.ts): a fold's functions cannot cross
  // the socket, so a follower folds what it reads itself.
  'log.aggregateStream': (
    log: EventLog,
    a: {
      streamName: string;
      options: AggregateStreamOptions<unknown, Event, LogReadEventMetadata>;
    },
  ) => log.aggregateStream(a.streamName, a.options),
  'log.readStream': (log: EventLog, a: { streamName: string; options: WireReadOptions }) =>
    log.readStream(a.streamName, a.options),
  'log.streamExists': (log: EventLog, a: { streamName: string }) => log.streamExists(a.streamName),
  'log.readAll': (log: EventLog, a: ReadPage) => log.readAll(a),
  'log.readProject': (log: EventLog, a: { projectId: string; page: ReadPage }) =>
    log.readProject(a.projectId, a.page),
  'log.readRaw': (log: EventLog, a: ReadPage) => log.readRaw(a),
  'log.head': (log: EventLog) => log.head(),
  'log.getIdempotency': (log: EventLog, a: { scope: string }) => log.getIdempotency(a.scope),
  'log.shred': (log: EventLog, a: { subject: string }) => log.shred(a.subject),
  // msgpack has no undefined: a store without a fault answers null
  'log.writeFault': async (log: EventLog) => (await log.writeFault?.()) ?? null,
  // a store that keeps no snapshots answers as an empty one
  'snapshots.get': async (log: EventLog, a: { name: string; stream: string }) =>
    (await log.snapshots?.get(a.name, a.stream)) ?? null,
  'snapshots.list': async (log: EventLog) => (await log.snapshots?.list()) ?? [],
  'snapshots.count': async (log: EventLog) => (await log.snapshots?.count()) ?? 0,
  'snapshots.clear': async (log: EventLog) => log.snapshots?.clear(),
  'snapshots.settled': async (log: EventLog) => log.snapshots?.settled(),
  'models.get': (log: EventLog, a: { key: string }) => log.models.get<unknown>(a.key),
  'models.getMany': (log: EventLog, a: { keys: string[] }) => log.models.getMany<unknown>(a.keys),
  'models.range': (log: EventLog, a: ModelRange) => log.models.range<unknown>(a),
  'models.write': (log: EventLog, a: { ops: ModelOp[] }) => log.models.write(a.ops),
  'models.clear': (log: EventLog, a: { prefix: string }) => log.models.clear(a.prefix),
} satisfies Record<string, (log: EventLog, args: never) => Promise<unknown>>;

export type LogOps = typeof logOps;
export type LogOpName = keyof LogOps;
export type LogOpArgs<K extends LogOpName> = Parameters<LogOps[K]>[1];
export type LogOpResult<K extends LogOpName> = Awaited<ReturnType<LogOps[K]>>;

type AnyLogOp = (log: EventLog, args: never) => Promise<unknown>;

export const isLogOp = (op: string): op is LogOpName => Object.hasOwn(logOps, op);

export const runLogOp = (log: EventLog, op: LogOpName, args: unknown): Promise<unknown> =>
  (logOps[op] as AnyLogOp)(log, args as never);
