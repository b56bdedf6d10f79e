import { canonicalJson, sha256Hex } from './codec.js';
import type { StoredRecord } from './envelope.js';

// The stored envelope's members in canonical (code unit) order; `hash` is not part of its link.
const LINKED = [
  'actor_id',
  'actor_role',
  'aggregate_id',
  'aggregate_type',
  'causation_event_id',
  'correlation_id',
  'created_at',
  'cursor',
  'data',
  'event_id',
  'global_position',
  'prev_hash',
  'project_id',
  'schema_version',
  'sealed',
  'stream_name',
  'stream_version',
  'type',
] as const satisfies readonly Exclude<keyof StoredRecord, 'hash'>[];

/**
 * `canonicalJson` of the record without its hash. Every append and every audit runs this, so
 * an envelope with exactly the known members skips enumerating and sorting its keys; any other
 * (a member more, or one present but undefined) takes the general path, which gives the same
 * bytes by definition.
 */
const linkedJson = (record: Omit<StoredRecord, 'hash'>): string => {
  const members = record as Record<string, unknown>;
  let out = '{';
  let count = 0;
  for (const key of LINKED) {
    const value = members[key];
    if (value === undefined) continue;
    const json = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
    out += `${count++ > 0 ? ',' : ''}"${key}":${json}`;
  }
  if (Object.keys(record).length === count + (Object.hasOwn(record, 'hash') ? 1 : 0))
    return `${out}}`;
  const { ...linked } = members;
  delete linked.hash;
  return canonicalJson(linked);
};

/** The link of one event: SHA-256 over the previous hash and the canonical stored envelope. */
export const chainHash = (record: Omit<StoredRecord, 'hash'>): string =>
  sha256Hex(`${record.prev_hash}\n${linkedJson(record)}`);
export type ChainBreak = { event_id: string; cursor: number; reason: string };

/** Checks one project's records in cursor order; answers the first bad link, if any. */
export const verifyChain = (
  records: Iterable<StoredRecord>,
  startHash: string,
  startCursor = 0,
): ChainBreak | undefined => {
  let prev = startHash;
  let cursor = startCursor;
  for (const record of records) {
    if (record.cursor !== cursor + 1)
      return {
        event_id: record.event_id,
        cursor: record.cursor,
        reason: `cursor gap after ${cursor}`,
      };
    if (record.prev_hash !== prev)
      return {
        event_id: record.event_id,
        cursor: record.cursor,
        reason: 'prev_hash does not match',
      };
    if (chainHash(record) !== record.hash)
      return {
        event_id: record.event_id,
        cursor: record.cursor,
        reason: 'hash does not match content',
      };
    prev = record.hash;
    cursor = record.cursor;
  }
  return undefined;
};
