import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AbstractLevel, AbstractSnapshot } from 'abstract-level';
import { ClassicLevel } from 'classic-level';
import { MemoryLevel } from 'memory-level';
import { takeStoreLock, type StoreLock } from './level-lock.js';
import { verifyLevelFiles } from './level-verify.js';

/** Any abstract-level database with Buffer keys and values: classic-level or memory-level. */
export type LevelDb = AbstractLevel<string | Buffer | Uint8Array, Buffer, Buffer>;

const options = { keyEncoding: 'buffer', valueEncoding: 'buffer' } as const;

/**
 * Table files LevelDB keeps open (its default: 1,000). It reads an open table through mmap, so
 * every page of one read counts in the process's resident memory (VmHWM) while the table stays
 * open: a replay of a 1,000,000-event log, reading every table, peaked at 1.3 GB resident, and
 * iterating it alone at 581 MB, of which 139 MB were its own (bench/RESULTS.md, session 16). Tables are ~2 MB, so 50 of them map at most ~100 MB; one
 * closed is opened again when read (its index and filter blocks: a few KB). Measured on a
 * 200,000-event replay: the same CPU with 40 as with 1,000, VmHWM 363 MB instead of 405.
 */
const MAX_OPEN_TABLES = 50;

/** The store closes, then its lock goes: never the other way round (level-lock.ts). */
const releasingOnClose = (db: LevelDb, lock: StoreLock): LevelDb => {
  const close = db.close.bind(db);
  db.close = async () => {
    await close();
    if (db.status === 'closed') await lock.release();
  };
  return db;
};

/**
 * Without fcntl's locks (Windows) the files are checked unlocked: one that vanishes meanwhile
 * was replaced by a process opening the store, which holds it now. Like a held lock, that is
 * waited out and retried by the caller.
 */
const vanished = (location: string, error: unknown): Error =>
  Object.assign(new Error(`lock ${location}: a file vanished while the store was checked`), {
    code: 'LEVEL_LOCKED',
    cause: error,
  });

/**
 * Opened under its real path: LevelDB's lock file keeps other processes out, and within one
 * process its table of held locks goes by path, so two names of one data dir (a symlink) must
 * reach it as one, or the process would open two writers on the same files. The lock is taken
 * before anything is read (level-lock.ts); then its files are checked (level-verify.ts;
 * `verify: false` only to copy out of a corrupt store), then LevelDB opens and recovers them.
 * Fails with LEVEL_LOCKED (as the code or the cause's) while another process holds the store.
 */
export const openClassicLevel = async (
  location: string,
  options_: { verify?: boolean } = {},
): Promise<LevelDb> => {
  const real = join(await realpath(dirname(location)), basename(location));
  const lock = await takeStoreLock(real);
  try {
    // before LevelDB's own recovery, which would drop a corrupt record and delete the evidence
    if (options_.verify !== false)
      await verifyLevelFiles(real).catch((error: unknown) => {
        const gone = (error as { code?: unknown }).code === 'ENOENT';
        throw gone && !lock.exclusive ? vanished(real, error) : error;
      });
    const db = new ClassicLevel<Buffer, Buffer>(real, {
      ...options,
      maxOpenFiles: MAX_OPEN_TABLES,
    });
    await db.open();
    return releasingOnClose(db, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
};

export const openMemoryLevel = async (): Promise<LevelDb> => {
  const db = new MemoryLevel<Buffer, Buffer>(options);
  await db.open();
  return db;
};

/** Whether writes reach a disk (classic-level) or stay in memory (memory-level). */
export const isOnDisk = (db: LevelDb): boolean => db instanceof ClassicLevel;

/**
 * A point read answered in place where the database can (classic-level and memory-level both
 * can): an asynchronous get goes through libuv's thread pool and back, which for a value in
 * LevelDB's block cache (a read model's row, an idempotency record) costs more than the read.
 */
export const getNow = (
  db: LevelDb,
  key: Buffer,
  options: { snapshot?: AbstractSnapshot } = {},
): Buffer | undefined | Promise<Buffer | undefined> =>
  (db.supports as { getSync?: boolean }).getSync === true && db.status === 'open'
    ? db.getSync(key, options)
    : db.get(key, options);

/** LevelDB can drop deleted bytes from disk; memory-level has nothing to compact. */
export const compact = async (db: LevelDb, start: Buffer, end: Buffer): Promise<void> => {
  if (isOnDisk(db)) await (db as ClassicLevel<Buffer, Buffer>).compactRange(start, end);
};
