import type { ProjectHead } from './append-plan.js';
import { GENESIS_HASH, type StoredRecord } from './envelope.js';
import type { EventLog } from './event-log.js';
import { verifyChain } from './hash-chain.js';

/**
 * Moving records between stores (`intentlog migrate`). Appends plan new records (ids, clock,
 * hashes); a migration must write the records another store already holds exactly as they are,
 * with the content keys their sealed content needs. Stores that support it implement this.
 */
export interface RecordTransfer {
  /** The content keys held for these subjects; a shredded subject has none. */
  contentKeys(subjects: readonly string[]): Promise<Map<string, Uint8Array>>;
  /**
   * Writes records as they are at the end of the log, with the keys of their sealed subjects,
   * atomically. They must continue the log exactly: the next global positions, each stream's
   * next versions, each project's next cursors linked to its chain (checkImport). Nothing is
   * re-planned; idempotency records are not part of it.
   */
  importRecords(
    records: readonly StoredRecord[],
    keys: ReadonlyMap<string, Uint8Array>,
  ): Promise<void>;
}

export type TransferableLog = EventLog & RecordTransfer;

/** An import that does not continue the target: nothing of it was written. */
export class ImportRefusedError extends Error {
  readonly code = 'import_refused';
}

/** What an import continues: the log's head, and the heads of the streams and projects it touches. */
export type ImportHeads = {
  global: number;
  streams: Map<string, number>;
  projects: Map<string, ProjectHead>;
};

/**
 * Checks that records continue the heads (gapless global positions, stream versions and project
 * cursors; every chain link, hash included) and advances the heads past them. Throws
 * ImportRefusedError at the first record that does not, before anything is written.
 */
export const checkImport = (heads: ImportHeads, records: readonly StoredRecord[]): void => {
  for (const r of records) {
    const refuse = (why: string) => {
      throw new ImportRefusedError(`record ${r.event_id} (position ${r.global_position}): ${why}`);
    };
    if (r.global_position !== heads.global + 1)
      refuse(`the log's next position is ${heads.global + 1}`);
    const version = heads.streams.get(r.stream_name) ?? 0;
    if (r.stream_version !== version + 1)
      refuse(`stream ${r.stream_name} is at version ${version}`);
    const project = heads.projects.get(r.project_id) ?? { cursor: 0, hash: GENESIS_HASH };
    const broken = verifyChain([r], project.hash, project.cursor);
    if (broken) refuse(`project ${r.project_id}: ${broken.reason}`);
    heads.global = r.global_position;
    heads.streams.set(r.stream_name, r.stream_version);
    heads.projects.set(r.project_id, { cursor: r.cursor, hash: r.hash });
  }
};

/** The subjects of the sealed records among these. */
export const sealedSubjects = (records: readonly StoredRecord[]): string[] => [
  ...new Set(records.flatMap((r) => (r.sealed ? [r.sealed.subject] : []))),
];

/**
 * The keys an import writes: one the target already holds under a subject must be the same key,
 * or content sealed under one of them would stop opening.
 */
export const newKeysOf = (
  incoming: ReadonlyMap<string, Uint8Array>,
  existing: ReadonlyMap<string, Uint8Array>,
): Map<string, Uint8Array> => {
  const fresh = new Map<string, Uint8Array>();
  for (const [subject, key] of incoming) {
    const held = existing.get(subject);
    if (!held) fresh.set(subject, key);
    else if (!Buffer.from(held).equals(Buffer.from(key)))
      throw new ImportRefusedError(`the target holds another content key for subject ${subject}`);
  }
  return fresh;
};
