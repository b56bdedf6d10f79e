import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, rmSync, statSync } from 'node:fs';
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

/**
 * A record's file is at most this long. A whole record is about 420 bytes and nothing a Hook
 * writes is longer; a longer file is no record (a 304 MB one took the writer's memory from 244
 * to 768 MB, issue 40), and it is refused from its size, unread.
 */
export const RECORD_MAX_BYTES = 2_048;

const KINDS = new Set<string>(['user-prompt', 'stop', 'session-end', 'post-compact', 'served']);
const HEX64 = /^[0-9a-f]{64}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FIELDS = ['v', 'id', 'kind', 'root', 'session', 'task_id', 'sha256', 'at', 'nonce'];

/**
 * Why a parsed record is not one a Hook wrote, or undefined when it is: every field has the one
 * shape a Hook gives it (hashes as hex, the served task as a UUID, the time as an ISO instant),
 * so nothing odd (a lone surrogate, a 5 MB "hash") reaches the fold or an event.
 */
const flawOf = (value: unknown): string | undefined => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an object';
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !FIELDS.includes(k));
  if (extra !== undefined) return `an unknown field ${JSON.stringify(extra.slice(0, 40))}`;
  if (r.v !== 1) return 'v: not 1';
  if (typeof r.kind !== 'string' || !KINDS.has(r.kind)) return 'kind: not a Hook record kind';
  for (const field of ['id', 'root', 'session'])
    if (typeof r[field] !== 'string' || !HEX64.test(r[field])) return `${field}: not 64 hex digits`;
  const served = r.kind === 'served';
  if (served ? typeof r.task_id !== 'string' || !UUID.test(r.task_id) : r.task_id !== null)
    return served ? 'task_id: not a task UUID' : 'task_id: not null';
  const hashed = r.kind !== 'served' && r.kind !== 'post-compact';
  if (hashed ? typeof r.sha256 !== 'string' || !HEX64.test(r.sha256) : r.sha256 !== null)
    return hashed ? 'sha256: not 64 hex digits' : 'sha256: not null';
  if (typeof r.at !== 'string' || !INSTANT.test(r.at) || Number.isNaN(Date.parse(r.at)))
    return 'at: not an ISO instant';
  if (typeof r.nonce !== 'string' || !HEX16.test(r.nonce)) return 'nonce: not 16 hex digits';
  if (r.id !== idOf(r as SpoolRecord)) return "id: not its content's (torn or altered)";
  return undefined;
};

/** A spool entry that is no record: why, and what it was (never its content). */
export type Refusal = { reason: string; bytes: number | null; sha256: string | null };
export type Taken = { record: SpoolRecord } | { refused: Refusal };

const kindOfEntry = (s: ReturnType<typeof fstatSync>) =>
  s.isFIFO()
    ? 'a FIFO'
    : s.isDirectory()
      ? 'a directory'
      : s.isSocket()
        ? 'a socket'
        : s.isSymbolicLink()
          ? 'a symbolic link'
          : 'a device';

const refuse = (reason: string, bytes: number | null = null, content?: Buffer): Taken => ({
  refused: {
    reason,
    bytes,
    sha256: content ? createHash('sha256').update(content).digest('hex') : null,
  },
});

/** Opens an entry without following a link and without waiting on a FIFO. */
const openEntry = (path: string): number =>
  openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));

/**
 * Takes one spool entry as the writer folds it: a record, or why it is none; undefined when it
 * is gone. Only a regular file with one link, at most RECORD_MAX_BYTES long, is read: a FIFO is
 * never waited on (it blocked the event loop), a link never followed.
 */
export const takeSpooled = (dataDir: string, name: string): Taken | undefined => {
  let fd: number;
  try {
    fd = openEntry(join(spoolDir(dataDir), name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return refuse(code === 'ELOOP' ? 'a symbolic link, not a record' : `unreadable (${code})`);
  }
  let content: Buffer;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return refuse(`${kindOfEntry(stat)}, not a record`);
    if (stat.nlink > 1) return refuse('a file with other links, not a record', stat.size);
    if (stat.size > RECORD_MAX_BYTES)
      return refuse(`${stat.size} bytes, over the ${RECORD_MAX_BYTES}-byte bound`, stat.size);
    const buffer = Buffer.alloc(RECORD_MAX_BYTES + 1);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    if (read > RECORD_MAX_BYTES)
      return refuse(`over the ${RECORD_MAX_BYTES}-byte bound`, read, buffer);
    content = buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(content));
  } catch {
    return refuse('not UTF-8 JSON (torn?)', content.length, content);
  }
  const flaw = flawOf(parsed);
  return flaw === undefined
    ? { record: parsed as SpoolRecord }
    : refuse(flaw, content.length, content);
};

/** A record file read back, if it is whole and well-formed and its id is its content's. */
export const readSpooled = (dataDir: string, name: string): SpoolRecord | undefined => {
  const taken = takeSpooled(dataDir, name);
  return taken && 'record' in taken ? taken.record : undefined;
};

/**
 * Removes a folded record, or an entry that is none (a directory too); temporary files a
 * crashed Hook left (older than a minute) as well.
 */
export const removeSpooled = (dataDir: string, name: string): void =>
  rmSync(join(spoolDir(dataDir), name), { force: true, recursive: true });

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
