import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from './codec.js';
import type { StoredRecord } from './envelope.js';
import { Keys, readBe64 } from './level/keys.js';
import { openClassicLevel } from './level/level-db.js';
import { copyStoreFiles } from './level/level-scan.js';
import { levelContentKeys } from './level/level-import.js';

/** One stored entry of the global log as salvage finds it: a record, or why it is none. */
export type SalvagedEntry = { position: number; record?: StoredRecord; problem?: string };

export type Salvage = {
  /** the highest position the damaged store still holds */
  head: number;
  /** entries in position order, a page at a time, from the first position after `after` */
  page(after: number, limit: number): Promise<SalvagedEntry[]>;
  contentKeys(subjects: readonly string[]): Promise<Map<string, Uint8Array>>;
  close(): Promise<void>;
};

/**
 * Opens a copy of a LevelDB data dir that failed its checks, for `intentlog audit repair`: the
 * source is never written (LevelDB's recovery, which drops what it cannot read, runs on a copy
 * in a temporary directory), and nothing is checked on open: what is left is read as it is.
 */
export const openSalvage = async (dataDir: string): Promise<Salvage> => {
  const scratch = await mkdtemp(join(tmpdir(), 'intentlog-salvage-'));
  const location = join(scratch, 'log');
  try {
    await copyStoreFiles(join(dataDir, 'log'), location);
    const db = await openClassicLevel(location, { verify: false });
    const last = (await db.keys({ ...Keys.globalRange(0), reverse: true, limit: 1 }).all())[0];
    return {
      head: last ? readBe64(last, 1) : 0,
      page: async (after, limit) =>
        (await db.iterator({ ...Keys.globalRange(after), limit }).all()).map(([key, value]) => {
          const position = readBe64(key, 1);
          try {
            return { position, record: decode<StoredRecord>(value) };
          } catch (error) {
            return { position, problem: `cannot be decoded: ${(error as Error).message}` };
          }
        }),
      contentKeys: (subjects) => levelContentKeys(db, subjects),
      close: async () => {
        await db.close();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
};
