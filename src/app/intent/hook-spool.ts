import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hooksDir, namesIn, syncDir, writeDurably } from './hook-view-file.js';
import { makeDirs } from '../../events/make-dirs.js';

/**
 * The Hook spool: what a Hook records, left for the writer to fold into the log. A Hook never
 * opens the store; it writes one small file per record here, whole (a temporary file fsync'd,
 * then renamed, then the directory fsync'd), and the next process that holds the writer role
 * folds every record in name order, exactly once: each record is appended with its own id as
 * the idempotency key, so a writer that dies between the append and the file's removal, or two
 * writers one after another, append it once (hook-keeper.ts). No imports but Node's.
 */
export type SpoolKind = 'user-prompt' | 'stop' | 'session-end' | 'post-compact' | 'served';

export type SpoolRecord = {
  v: 1;
  /** sha256 of every other field: the record's idempotency key, checked when folded */
  id: string;
  kind: SpoolKind;
  /** the project's canonical-root hash */
  root: string;
  /** markerHash of the host session */
  session: string;
  /** `served`: the task whose recovery note a SessionStart gave */
  task_id: string | null;
  /** candidates: the hash the candidate carries (never the prompt) */
  sha256: string | null;
  at: string;
  /** random: two records alike in every other field are two records */
  nonce: string;
};

export const spoolDir = (dataDir: string): string => join(hooksDir(dataDir), 'spool');

const SUFFIX = '.rec';

const idOf = (record: Omit<SpoolRecord, 'id'>): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        record.v,
        record.kind,
        record.root,
        record.session,
        record.task_id,
        record.sha256,
        record.at,
        record.nonce,
      ]),
    )
    .digest('hex');

/** The tag a record's file name carries: whom it is about, so a Hook finds it without reading it. */
export const tagOf = (text: string): string =>
  createHash('sha256').update(text).digest('hex').slice(0, 12);

let sequence = 0;

/**
 * Appends one record to the spool, durably; answers its file name. The name orders records:
 * the time in ms, then this process's sequence, then its pid (two Hooks in one millisecond are
 * concurrent; either order is theirs), then what it is and about whom.
 */
export const appendSpool = (
  dataDir: string,
  fields: Omit<SpoolRecord, 'v' | 'id' | 'at' | 'nonce'>,
  now: Date = new Date(),
): string => {
  const dir = spoolDir(dataDir);
  makeDirs(dir, 0o700);
  const body = {
    v: 1 as const,
    ...fields,
    at: now.toISOString(),
    nonce: randomBytes(8).toString('hex'),
  };
  const record: SpoolRecord = { ...body, id: idOf(body) };
  const about = fields.kind === 'served' ? tagOf(fields.task_id ?? '') : tagOf(fields.session);
  const name =
    `${String(now.getTime()).padStart(15, '0')}-${String(sequence++).padStart(6, '0')}-` +
    `${process.pid}-${fields.kind}-${about}${SUFFIX}`;
  writeDurably(join(dir, name), JSON.stringify(record));
  syncDir(dir);
  return name;
};

/** The records waiting, in the order they are folded (names; the temporary files left out). */
export const spooled = (dataDir: string): string[] =>
  namesIn(spoolDir(dataDir))
    .filter((n) => n.endsWith(SUFFIX))
    .sort();

/** The kind and the tag a record's name carries. */
export const nameParts = (name: string): { kind: string; tag: string } | undefined => {
  const parts = name.slice(0, -SUFFIX.length).split('-');
  if (parts.length < 5) return undefined;
  return { kind: parts.slice(3, -1).join('-'), tag: parts.at(-1)! };
};

const KINDS = new Set<string>(['user-prompt', 'stop', 'session-end', 'post-compact', 'served']);
const nullableString = (v: unknown) => v === null || typeof v === 'string';

/** A record file read back, if it is whole and its id is its content's. */
export const readSpooled = (dataDir: string, name: string): SpoolRecord | undefined => {
  try {
    const r = JSON.parse(readFileSync(join(spoolDir(dataDir), name), 'utf8')) as SpoolRecord;
    const wellFormed =
      r.v === 1 &&
      KINDS.has(r.kind) &&
      typeof r.root === 'string' &&
      typeof r.session === 'string' &&
      nullableString(r.task_id) &&
      nullableString(r.sha256) &&
      typeof r.at === 'string' &&
      typeof r.nonce === 'string';
    return wellFormed && r.id === idOf(r) ? r : undefined;
  } catch {
    return undefined;
  }
};

/** Removes a folded record; temporary files a crashed Hook left (older than a minute) too. */
export const removeSpooled = (dataDir: string, name: string): void =>
  rmSync(join(spoolDir(dataDir), name), { force: true });

export const sweepTemporaries = (dataDir: string, now = Date.now()): void => {
  const dir = spoolDir(dataDir);
  for (const name of namesIn(dir))
    if (name.endsWith('.tmp'))
      try {
        if (now - statSync(join(dir, name)).mtimeMs > 60_000) rmSync(join(dir, name));
      } catch {
        // gone already
      }
};
