import { assertExpectedVersionMatchesCurrent, type Event } from '@event-driven-io/emmett';
import type { Catalog } from './catalog/catalog.js';
import type { AppendMeta, StoredRecord } from './envelope.js';
import type { MultiAppendResult } from './event-log.js';
import type { ExpectedStreamVersion } from '@event-driven-io/emmett';
import { chainHash } from './hash-chain.js';
import { newEventId } from './ids.js';
import { seal, sealSubjectOf } from './sealing.js';
import { parseStreamName } from './stream-name.js';

export type ProjectHead = { cursor: number; hash: string };

export type PlanInput = {
  streamName: string;
  events: readonly Event[];
  meta: AppendMeta;
  expected: ExpectedStreamVersion<bigint> | undefined;
  streamVersion: number;
  projectHead: ProjectHead;
  globalPosition: number;
  catalog: Catalog;
  /** the content key of a subject, created on first use */
  keyFor: (subject: string) => Uint8Array;
  now?: Date;
};

export type Plan = {
  streamName: string;
  projectId: string;
  records: StoredRecord[];
  streamVersion: number;
  projectHead: ProjectHead;
};

/**
 * Turns one stream's append into stored records: checks the expected version (also when there
 * are no events: a multi-stream append checks every stream it read), validates each event
 * against the catalog, seals what asks to be sealed and links the project's hash chain. Pure
 * but for ids and the clock, so every store computes the same records the same way.
 */
export const planAppend = (input: PlanInput): Plan => {
  const { streamName, events, meta, catalog } = input;
  const stream = parseStreamName(streamName) ?? {
    aggregateType: 'stream',
    projectId: '',
    aggregateId: streamName,
  };
  assertExpectedVersionMatchesCurrent(BigInt(input.streamVersion), input.expected, 0n);
  const created_at = (input.now ?? new Date()).toISOString();
  let { cursor, hash } = input.projectHead;
  const records = events.map((event, i): StoredRecord => {
    const data = catalog.validate(event.type, event.data);
    const subject = sealSubjectOf(event);
    // One literal, then its content and hash added in the same order for every event: V8 keeps
    // one fast shape for all records (a spread of conditional members made a slow dictionary
    // object, which encoding and hashing then paid for).
    const record = {
      event_id: newEventId(),
      type: event.type,
      schema_version: catalog.currentVersion(event.type),
      project_id: stream.projectId,
      actor_id: meta.actor_id,
      actor_role: meta.actor_role,
      aggregate_type: stream.aggregateType,
      aggregate_id: stream.aggregateId,
      correlation_id: meta.correlation_id,
      causation_event_id: meta.causation_event_id,
      created_at,
      stream_name: streamName,
      stream_version: input.streamVersion + i + 1,
      global_position: input.globalPosition + i + 1,
      cursor: ++cursor,
      prev_hash: hash,
    } as StoredRecord;
    if (subject) record.sealed = seal(subject, input.keyFor(subject), data);
    else record.data = data;
    record.hash = hash = chainHash(record);
    return record;
  });
  return {
    streamName,
    projectId: stream.projectId,
    records,
    streamVersion: input.streamVersion + events.length,
    projectHead: { cursor, hash },
  };
};

/**
 * What an append of plans answers, in every store: `global` is the log's head before it, the
 * position answered when no event was appended.
 */
export const appendResult = (plans: readonly Plan[], global: number): MultiAppendResult => {
  let last: StoredRecord | undefined;
  const streams = plans.map((plan) => {
    last = plan.records.at(-1) ?? last;
    return {
      streamName: plan.streamName,
      nextExpectedStreamVersion: BigInt(plan.streamVersion),
      createdNewStream: plan.records[0]?.stream_version === 1,
    };
  });
  return {
    lastEventGlobalPosition: BigInt(last?.global_position ?? global),
    lastCursor: last?.cursor ?? 0,
    streams,
  };
};
