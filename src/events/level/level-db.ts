import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AbstractLevel } from 'abstract-level';
import { ClassicLevel } from 'classic-level';
import { MemoryLevel } from 'memory-level';

/** Any abstract-level database with Buffer keys and values: classic-level or memory-level. */
export type LevelDb = AbstractLevel<string | Buffer | Uint8Array, Buffer, Buffer>;

const options = { keyEncoding: 'buffer', valueEncoding: 'buffer' } as const;

/**
 * Opened under its real path: LevelDB's lock file keeps other processes out, and within one
 * process its table of held locks goes by path, so two names of one data dir (a symlink) must
 * reach it as one, or the process would open two writers on the same files.
 */
export const openClassicLevel = async (location: string): Promise<LevelDb> => {
  const real = join(await realpath(dirname(location)), basename(location));
  const db = new ClassicLevel<Buffer, Buffer>(real, options);
  await db.open();
  return db;
};

export const openMemoryLevel = async (): Promise<LevelDb> => {
  const db = new MemoryLevel<Buffer, Buffer>(options);
  await db.open();
  return db;
};

/** Whether writes reach a disk (classic-level) or stay in memory (memory-level). */
export const isOnDisk = (db: LevelDb): boolean => db instanceof ClassicLevel;

/** LevelDB can drop deleted bytes from disk; memory-level has nothing to compact. */
export const compact = async (db: LevelDb, start: Buffer, end: Buffer): Promise<void> => {
  if (isOnDisk(db)) await (db as ClassicLevel<Buffer, Buffer>).compactRange(start, end);
};
