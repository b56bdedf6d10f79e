import type { AbstractLevel } from 'abstract-level';
import { ClassicLevel } from 'classic-level';
import { MemoryLevel } from 'memory-level';

/** Any abstract-level database with Buffer keys and values: classic-level or memory-level. */
export type LevelDb = AbstractLevel<string | Buffer | Uint8Array, Buffer, Buffer>;

const options = { keyEncoding: 'buffer', valueEncoding: 'buffer' } as const;

export const openClassicLevel = async (location: string): Promise<LevelDb> => {
  const db = new ClassicLevel<Buffer, Buffer>(location, options);
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
