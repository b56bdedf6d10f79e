import assert from 'node:assert/strict';
import {
  GENESIS_HASH,
  verifyChain,
  type EventLog,
  type LogEvent,
  type StoredRecord,
} from '../../src/events/index.js';
import type { Ack } from './spawn-instance.js';

export const range1 = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

const readAllPages = async <T extends { global_position: number }>(
  read: (after: number) => Promise<T[]>,
): Promise<T[]> => {
  const all: T[] = [];
  for (;;) {
    const page = await read(all.at(-1)?.global_position ?? 0);
    if (page.length === 0) return all;
    all.push(...page);
  }
};

export const everything = (log: EventLog): Promise<LogEvent[]> =>
  readAllPages((after) => log.readAll({ after, limit: 500 }));

/**
 * The log's invariants: gapless global positions, unique event ids, per project gapless cursors
 * and a chain that verifies from the genesis hash.
 */
export const assertLogInvariants = async (log: EventLog): Promise<LogEvent[]> => {
  const events = await everything(log);
  assert.deepEqual(
    events.map((e) => e.global_position),
    range1(events.length),
  );
  assert.equal(await log.head(), events.length);
  assert.equal(new Set(events.map((e) => e.event_id)).size, events.length);
  const raw = await readAllPages((after) => log.readRaw({ after, limit: 500 }));
  const chains = new Map<string, StoredRecord[]>();
  for (const r of raw) chains.set(r.project_id, [...(chains.get(r.project_id) ?? []), r]);
  for (const [project, records] of chains) {
    assert.equal(verifyChain(records, GENESIS_HASH), undefined, `chain of ${project}`);
    assert.deepEqual(
      records.map((r) => r.cursor),
      range1(records.length),
    );
  }
  return events;
};

/** Every acknowledged append is in the log exactly once, whole; nothing is in it twice. */
export const assertAcknowledgedOnce = (events: LogEvent[], acks: Ack[]): void => {
  const byTag = new Map<string, number[]>();
  for (const e of events) {
    const tag = e.data.tag;
    if (typeof tag === 'string') byTag.set(tag, [...(byTag.get(tag) ?? []), Number(e.data.i)]);
  }
  for (const { tag, size } of acks)
    assert.deepEqual(
      byTag.get(tag),
      range1(size).map((i) => i - 1),
      `append ${tag}`,
    );
};
