import type { ReadEvent } from '@event-driven-io/emmett';
import type { Catalog } from './catalog/catalog.js';
import type { LogEvent, SealedContent, StoredRecord } from './envelope.js';
import type { LogReadEventMetadata } from './event-log.js';
import { unseal } from './sealing.js';

/** Looks up a subject's content key; undefined once shredded. */
export type KeyLookup = (subject: string) => Uint8Array | undefined;

/**
 * Sealed content, or undefined when its key is gone. A key that exists but does not open the
 * content was created for the subject after an earlier shred: the content was sealed under the
 * destroyed key, so it reads as shredded too. (Tampered ciphertext is the hash chain's to catch.)
 */
export const openSealed = (sealed: SealedContent, key: Uint8Array | undefined) => {
  if (!key) return undefined;
  try {
    return unseal(sealed, key);
  } catch {
    return undefined;
  }
};

/**
 * What readers see of a stored record: latest schema version, content opened or shredded.
 * The envelope is copied field by field, not with rest/spread: decoded records are large
 * dictionary-like objects, and `{ data, sealed, ...envelope }` cost ~13 µs per event, most of a
 * replay's time (~1.5 µs this way). The LogEvent type makes a forgotten field a compile error.
 */
export const toLogEvent = (record: StoredRecord, catalog: Catalog, keyOf: KeyLookup): LogEvent => {
  const { sealed } = record;
  let data: Record<string, unknown> = {};
  let shredded = false;
  if (sealed) {
    const opened = openSealed(sealed, keyOf(sealed.subject));
    if (opened) data = opened;
    else shredded = true;
  } else data = record.data ?? {};
  const event: LogEvent = {
    event_id: record.event_id,
    type: record.type,
    schema_version: shredded ? record.schema_version : catalog.currentVersion(record.type),
    project_id: record.project_id,
    actor_id: record.actor_id,
    actor_role: record.actor_role,
    aggregate_type: record.aggregate_type,
    aggregate_id: record.aggregate_id,
    correlation_id: record.correlation_id,
    causation_event_id: record.causation_event_id,
    created_at: record.created_at,
    stream_name: record.stream_name,
    stream_version: record.stream_version,
    global_position: record.global_position,
    cursor: record.cursor,
    prev_hash: record.prev_hash,
    hash: record.hash,
    data: shredded ? data : catalog.upcast(record.type, record.schema_version, data),
    shredded,
  };
  if (sealed) event.seal = sealed.subject;
  return event;
};

/** An event as Emmett's `readStream` hands it out. */
export type LogReadEvent = ReadEvent<
  { type: string; data: Record<string, unknown> },
  LogReadEventMetadata
>;

export const toReadEvent = (event: LogEvent): LogReadEvent => ({
  type: event.type,
  data: event.data,
  kind: 'Event',
  metadata: {
    ...(event.seal === undefined ? {} : { seal: event.seal }),
    messageId: event.event_id,
    streamName: event.stream_name,
    streamPosition: BigInt(event.stream_version),
    globalPosition: BigInt(event.global_position),
    eventId: event.event_id,
    projectId: event.project_id,
    actorId: event.actor_id,
    actorRole: event.actor_role,
    createdAt: event.created_at,
    cursor: event.cursor,
  },
});
