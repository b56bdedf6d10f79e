import type {
  AppendToStreamOptions,
  AppendToStreamResultWithGlobalPosition,
  Event,
  EventStore,
  ExpectedStreamVersion,
  ReadEventMetadataWithGlobalPosition,
} from '@event-driven-io/emmett';
import type { Observable } from 'rxjs';
import type { AppendMeta, LogEvent, StoredRecord } from './envelope.js';
import type { ModelStore } from './model-store.js';
import type { SnapshotAccess } from './snapshots/snapshot-keeper.js';

/** Emmett read metadata plus our envelope, so a decider's evolve can see who did what. */
export type LogReadEventMetadata = ReadEventMetadataWithGlobalPosition & {
  eventId: string;
  projectId: string;
  actorId: string;
  actorRole: string;
  createdAt: string;
  cursor: number;
  /** the subject the event's content was sealed under, when it was sealed (LogEvent.seal) */
  seal?: string;
};

/**
 * An idempotency record as readers get it: written in the same atomic append as the events it
 * answered for (or alone, when the command emitted none). `shredded` is set when the response was
 * sealed (its append sealed content) and a subject it was sealed under has been shredded: the
 * response is then gone (`null`), the fingerprint and position remain.
 */
export type IdempotencyRecord = {
  fingerprint: string;
  response: unknown;
  position: number;
  shredded?: true;
};

/**
 * Idempotency for one append: the scope (key, project, caller), what "same input" means, and the
 * response the caller is answered, decided before the append and stored with it.
 */
export type IdempotencyClaim = {
  scope: string;
  fingerprint: string;
  response: unknown;
};

/** One stream's part of an atomic multi-stream append. */
export type StreamAppend<EventType extends Event = Event> = {
  streamName: string;
  /** may be empty: the stream's expected version is still checked */
  events: readonly EventType[];
  expectedStreamVersion?: ExpectedStreamVersion<bigint>;
};

export type MultiAppendOptions = {
  /** who appends; defaults to the system principal */
  meta?: AppendMeta;
  idempotency?: IdempotencyClaim;
  /** chosen by the caller so that a retried append that already committed is not doubled */
  appendId?: string;
};

/** What an atomic multi-stream append answers (and what an appendId record keeps). */
export type MultiAppendResult = {
  /** the last appended event's global position; the log's head when no event was appended */
  lastEventGlobalPosition: bigint;
  /** project cursor of the last appended event (0 when none was appended) */
  lastCursor: number;
  /** per stream, in the order given */
  streams: { streamName: string; nextExpectedStreamVersion: bigint; createdNewStream: boolean }[];
};

export type LogAppendOptions<
  EventType extends Event = Event,
  EventPayloadType extends Event = EventType,
> = AppendToStreamOptions<bigint, EventType, EventPayloadType> & {
  /** who appends; defaults to the system principal */
  meta?: AppendMeta;
  idempotency?: IdempotencyClaim;
  /** chosen by the caller so that a retried append that already committed is not doubled */
  appendId?: string;
};

export type LogAppendResult = AppendToStreamResultWithGlobalPosition & {
  /** project cursor of the last appended event */
  lastCursor: number;
};

export type ReadPage = { after: number; limit: number };

/**
 * The log: Emmett's EventStore (so CommandHandler, DeciderCommandHandler and
 * DeciderSpecification work unchanged) plus what the product needs.
 */
export interface EventLog extends EventStore<LogReadEventMetadata> {
  appendToStream<EventType extends Event, EventPayloadType extends Event = EventType>(
    streamName: string,
    events: EventType[],
    options?: LogAppendOptions<EventType, EventPayloadType>,
  ): Promise<LogAppendResult>;
  /**
   * Appends to several streams in one atomic write: every stream's expected version is checked
   * before anything is written, and one stale stream refuses the whole append with Emmett's
   * ExpectedVersionConflictError. A stream may get no events (its version is still checked); an
   * append of no events at all writes only its idempotency and appendId records. Stream names
   * must be distinct.
   */
  appendToStreams(
    appends: readonly StreamAppend[],
    options?: MultiAppendOptions,
  ): Promise<MultiAppendResult>;
  /** Events after a global position, in append order, upcast and unsealed. */
  readAll(page: ReadPage): Promise<LogEvent[]>;
  /** A project's events after a cursor, in cursor order. */
  readProject(projectId: string, page: ReadPage): Promise<LogEvent[]>;
  /** Records exactly as stored (sealed content stays sealed): for audit and export. */
  readRaw(page: ReadPage): Promise<StoredRecord[]>;
  /** The global position of the last committed event (0 when empty). */
  head(): Promise<number>;
  /** Committed events as they commit, in global order; never an unacknowledged one. */
  live(): Observable<LogEvent>;
  getIdempotency(scope: string): Promise<IdempotencyRecord | undefined>;
  /** Destroys a subject's content key and compacts its range: its sealed content is gone. */
  shred(subject: string): Promise<void>;
  /** Where read models of this process live (same database for LevelDB, local for others). */
  readonly models: ModelStore;
  /** Its aggregates' persisted snapshots (snapshots/), where loads fold in this process. */
  readonly snapshots?: SnapshotAccess;
  /** Why the store refuses writes now (a full disk), if it does; stores that cannot tell omit it. */
  writeFault?(): Promise<WriteFault | undefined>;
  close(): Promise<void>;
}

/** Why a store refuses writes: the cause (`ENOSPC`…, `unknown`), what it said, and since when. */
export type WriteFault = { cause: string; message: string; since: string };

/** The single-stream answer of a one-stream multi append (Emmett's appendToStream result). */
export const singleResult = (result: MultiAppendResult): LogAppendResult => ({
  nextExpectedStreamVersion: result.streams[0]!.nextExpectedStreamVersion,
  createdNewStream: result.streams[0]!.createdNewStream,
  lastEventGlobalPosition: result.lastEventGlobalPosition,
  lastCursor: result.lastCursor,
});

/**
 * An appendId record as stored. Records written before multi-stream appends hold a single
 * append's result (no `streams`): read as a one-stream result of a stream whose name was not kept.
 */
export const storedAppendResult = (
  stored: MultiAppendResult | LogAppendResult,
): MultiAppendResult =>
  'streams' in stored
    ? stored
    : {
        lastEventGlobalPosition: stored.lastEventGlobalPosition,
        lastCursor: stored.lastCursor,
        streams: [
          {
            streamName: '',
            nextExpectedStreamVersion: stored.nextExpectedStreamVersion,
            createdNewStream: stored.createdNewStream,
          },
        ],
      };

type AppendMany = (
  appends: readonly StreamAppend[],
  options: MultiAppendOptions,
) => Promise<MultiAppendResult>;

/**
 * Emmett's appendToStream as a one-stream atomic append: every store takes one path. The
 * caller's schema downcasts here (schema functions stay in the caller's process).
 */
export const appendOneStream = <EventType extends Event, EventPayloadType extends Event>(
  appendMany: AppendMany,
  streamName: string,
  events: EventType[],
  options: LogAppendOptions<EventType, EventPayloadType> = {},
): Promise<LogAppendResult> => {
  if (events.length === 0)
    return Promise.reject(new TypeError('an append needs at least one event'));
  const downcast = options.schema?.versioning?.downcast as ((e: Event) => Event) | undefined;
  const sent: readonly Event[] = downcast ? events.map(downcast) : events;
  const { expectedStreamVersion, meta, idempotency, appendId } = options;
  return appendMany([{ streamName, events: sent, expectedStreamVersion }], {
    meta,
    idempotency,
    appendId,
  }).then(singleResult);
};

/** A multi-stream append names each stream once (its expected version is one fact). */
export const assertDistinctStreams = (appends: readonly StreamAppend[]): void => {
  const names = new Set(appends.map((a) => a.streamName));
  if (names.size !== appends.length)
    throw new TypeError('a multi-stream append names each stream once');
};

/** Thrown by appendToStream when the idempotency scope is already recorded. */
export class IdempotencyReplayError extends Error {
  readonly code = 'idempotency_replay';
  constructor(readonly record: IdempotencyRecord) {
    super('idempotency key already used');
  }
}

/** The system principal: CLI and local stdio callers with no named actor. */
export const SYSTEM_META: AppendMeta = {
  actor_id: 'system',
  actor_role: 'SYSTEM',
  correlation_id: null,
  causation_event_id: null,
};
