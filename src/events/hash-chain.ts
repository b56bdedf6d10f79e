import { canonicalJson, sha256Hex } from './codec.js';
import type { StoredRecord } from './envelope.js';

/** The link of one event: SHA-256 over the previous hash and the canonical stored envelope. */
export const chainHash = (record: Omit<StoredRecord, 'hash'>): string => {
  const { ...linked } = record as StoredRecord;
  delete (linked as Partial<StoredRecord>).hash;
  return sha256Hex(`${record.prev_hash}\n${canonicalJson(linked)}`);
};

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
