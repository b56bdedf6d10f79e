import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  blockValues,
  crc32c,
  readHandle,
  readVarint,
  snappyDecompress,
  unmaskCrc,
} from './level-files.js';

/**
 * The data dir's LevelDB files fail their checksums. LevelDB itself, with the checks the binding
 * leaves it (no paranoid_checks), skips a corrupt write-ahead record and deletes the file, and
 * reads table blocks unchecked: acknowledged events vanish without a word. So intentlog checks
 * the files before LevelDB opens them, and refuses.
 */
export class CorruptStoreError extends Error {
  readonly code = 'corrupt_store';
  constructor(
    readonly location: string,
    readonly problems: readonly string[],
  ) {
    super(
      `the store in ${location} is corrupt (${problems.slice(0, 3).join('; ')}` +
        `${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}). Nothing was changed. ` +
        'Copy out what is intact with  intentlog audit repair --data-dir <this data dir> --into ' +
        '<a new data dir>  (docs/hardening.md), or restore a backup',
    );
    this.name = 'CorruptStoreError';
  }
}

const BLOCK = 32 * 1024;
const HEADER = 7;

/**
 * A write-ahead log (and the MANIFEST, in the same format): every whole record's CRC must hold.
 * A record cut short by the end of the file is a write that never completed (a crash, a full
 * disk): never acknowledged, it is not corruption. Zeroed block tails are padding.
 */
export const checkLogFile = (bytes: Buffer, name: string): string[] => {
  const problems: string[] = [];
  for (let block = 0; block < bytes.length; block += BLOCK) {
    const end = Math.min(block + BLOCK, bytes.length);
    for (let at = block; at + HEADER <= end;) {
      const length = bytes.readUInt16LE(at + 4);
      const type = bytes[at + 6]!;
      if (type === 0 && length === 0) break; // padding or preallocated space
      if (at + HEADER + length > end) {
        if (end === bytes.length) break; // a tail write that did not complete
        problems.push(`${name}: a record overruns its block at byte ${at}`);
        break;
      }
      const stored = unmaskCrc(bytes.readUInt32LE(at));
      const body = bytes.subarray(at + HEADER, at + HEADER + length);
      if (crc32c(Buffer.of(type), body) !== stored)
        problems.push(`${name}: checksum mismatch in the record at byte ${at}`);
      at += HEADER + length;
    }
  }
  return problems;
};

const TABLE_MAGIC = Buffer.from('57fb808b247547db', 'hex');
const FOOTER = 48;

/** A table file: its footer, then every block's CRC (index and metaindex blocks, and theirs). */
export const checkTableFile = (bytes: Buffer, name: string): string[] => {
  if (bytes.length < FOOTER || !bytes.subarray(bytes.length - 8).equals(TABLE_MAGIC))
    return [`${name}: not a table file (bad footer)`];
  const problems: string[] = [];
  const block = (handle: { offset: number; size: number }, what: string): Buffer | undefined => {
    const { offset, size } = handle;
    if (offset + size + 5 > bytes.length) {
      problems.push(`${name}: ${what} block runs past the end of the file`);
      return undefined;
    }
    const data = bytes.subarray(offset, offset + size);
    const type = bytes[offset + size]!;
    if (crc32c(data, Buffer.of(type)) !== unmaskCrc(bytes.readUInt32LE(offset + size + 1))) {
      problems.push(`${name}: checksum mismatch in the ${what} block at byte ${offset}`);
      return undefined;
    }
    return type === 1 ? snappyDecompress(data) : data;
  };
  try {
    const footer = bytes.subarray(bytes.length - FOOTER);
    const metaindex = readHandle(footer);
    const index = readHandle(footer, metaindex.next);
    for (const [handle, what] of [
      [metaindex, 'metaindex'],
      [index, 'index'],
    ] as const) {
      const contents = block(handle, what);
      if (!contents) continue;
      for (const value of blockValues(contents)) block(readHandle(value), `${what}ed`);
    }
  } catch (error) {
    problems.push(`${name}: unreadable structure (${(error as Error).message})`);
  }
  return problems;
};

/** The log-format records of a MANIFEST (or a write-ahead log), whole ones only. */
export const logRecords = (bytes: Buffer): Buffer[] => {
  const records: Buffer[] = [];
  let pending: Buffer[] = [];
  for (let block = 0; block < bytes.length; block += BLOCK) {
    const end = Math.min(block + BLOCK, bytes.length);
    for (let at = block; at + HEADER <= end;) {
      const length = bytes.readUInt16LE(at + 4);
      const type = bytes[at + 6]!;
      if ((type === 0 && length === 0) || at + HEADER + length > end) break;
      const body = bytes.subarray(at + HEADER, at + HEADER + length);
      if (type === 1) records.push(body);
      else if (type === 2) pending = [body];
      else if (type === 3) pending.push(body);
      else if (type === 4) records.push(Buffer.concat([...pending, body]));
      at += HEADER + length;
    }
  }
  return records;
};

/**
 * The table files the current version holds, replayed from the MANIFEST's version edits
 * (new file: tag 7, deleted file: tag 6). A crash during a compaction leaves a half-written
 * table that no version names: LevelDB deletes it at open, and it is no corruption. Undefined
 * when the MANIFEST cannot be read (then every table is checked).
 */
const liveTables = async (location: string): Promise<Set<number> | undefined> => {
  try {
    const current = (await readFile(join(location, 'CURRENT'), 'utf8')).trim();
    const live = new Set<number>();
    for (const edit of logRecords(await readFile(join(location, current)))) {
      for (let at = 0; at < edit.length;) {
        const [tag, a] = readVarint(edit, at);
        at = a;
        const skipString = () => {
          const [n, b] = readVarint(edit, at);
          at = b + n;
        };
        const num = () => {
          const [n, b] = readVarint(edit, at);
          at = b;
          return n;
        };
        if (tag === 1) skipString();
        else if (tag === 2 || tag === 3 || tag === 4 || tag === 9) num();
        else if (tag === 5) {
          num();
          skipString();
        } else if (tag === 6) {
          num();
          live.delete(num());
        } else if (tag === 7) {
          num();
          live.add(num());
          num();
          skipString();
          skipString();
        } else return undefined;
      }
    }
    return live;
  } catch {
    return undefined;
  }
};

/**
 * Table files LevelDB never rewrites: one checked once (by name, size and mtime) is not read
 * again at every open, which on a store of a million events would cost seconds. Kept beside the
 * LevelDB directory, not in it. A table changed since (any write moves its mtime) is checked again.
 */
const checkedFile = (location: string) =>
  join(dirname(location), `.${basename(location)}.checked.json`);
type Checked = Record<string, string>;
const identity = async (path: string) => {
  const s = await stat(path);
  return `${s.size}:${s.mtimeMs}:${s.ino}`;
};

/**
 * Checks every write-ahead log, MANIFEST and live table file of a LevelDB directory (tables
 * already checked and unchanged excepted); throws CorruptStoreError naming what failed. A
 * directory that does not exist yet passes (it is new).
 */
export const verifyLevelFiles = async (location: string): Promise<void> => {
  const names = await readdir(location).catch(() => [] as string[]);
  const live = names.includes('CURRENT') ? await liveTables(location) : undefined;
  const before = await readFile(checkedFile(location), 'utf8')
    .then((text) => JSON.parse(text) as Checked)
    .catch((): Checked => ({}));
  const checked: Checked = {};
  const problems: string[] = [];
  for (const name of names.sort()) {
    const isLog = (name.endsWith('.log') && name !== 'LOG') || name.startsWith('MANIFEST-');
    const isTable = name.endsWith('.ldb') || name.endsWith('.sst');
    if (!isLog && !isTable) continue;
    if (isTable && live && !live.has(Number.parseInt(name, 10))) continue; // not in the store
    const path = join(location, name);
    const id = isTable ? await identity(path) : '';
    if (isTable && before[name] === id) {
      checked[name] = id;
      continue;
    }
    const found = isLog
      ? checkLogFile(await readFile(path), name)
      : checkTableFile(await readFile(path), name);
    problems.push(...found);
    if (isTable && found.length === 0) checked[name] = id;
  }
  if (problems.length > 0) throw new CorruptStoreError(location, problems);
  // a read-only opener (a follower, a copy on a read-only disk) only loses the shortcut
  if (names.length > 0)
    await writeFile(checkedFile(location), JSON.stringify(checked)).catch(() => undefined);
};
