import type {
  AppendToStreamOptions,
  AppendToStreamResultWithGlobalPosition,
  Event,
  EventStore,
  ReadEventMetadataWithGlobalPosition,
} from '@event-driven-io/emmett';
import type { Observable } from 'rxjs';
import type { AppendMeta, LogEvent, StoredRecord } from './envelope.js';
import type { ModelStore } from './model-store.js';

/** Emmett read metadata plus our envelope, so a decider's evolve can see who did what. */
export type LogReadEventMetadata = ReadEventMetadataWithGlobalPosition & {
  eventId: string;
  projectId: string;
  actorId: string;
  actorRole: string;
  createdAt: string;
  cursor: number;
};

/** An idempotency record: written in the same atomic batch as the events it answered for. */
export type IdempotencyRecord = {
  fingerprint: string;
  response: unknown;
  position: number;
};

/**
 * Idempotency for one append. `response.value` is filled in by the command path after the
 * decider ran (Emmett passes this object through to appendToStream unchanged), so the stored
 * response is exactly what the caller was answered.
 */
export type IdempotencyClaim = {
  scope: string;
  fingerprint: string;
  response: { value?: unknown };
};

/** The record an append stores for its idempotency claim: what the caller was answered. */
export const idempotencyRecord = (
  claim: IdempotencyClaim,
  position: number,
): IdempotencyRecord => ({
  fingerprint: claim.fingerprint,
  response: claim.response.value ?? null,
  position,
});

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
  close(): Promise<void>;
}

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
