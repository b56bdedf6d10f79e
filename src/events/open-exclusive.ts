import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from './catalog/catalog.js';
import { openClassicLevel, type LevelDb } from './level/level-db.js';
import { levelEventLog } from './level/level-event-log.js';
import { checkLogTail } from './level/level-tail.js';
import { prepareDataDir } from './open-data-dir.js';
import { isPostgresUrl } from './postgres/connection.js';
import type { TransferableLog } from './record-import.js';

export type TransferOpenOptions = {
  /** a LevelDB data dir that does not exist yet is created (a target), else refused (a source) */
  create: boolean;
};

const isLocked = (error: unknown): boolean => {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return code === 'LEVEL_LOCKED' || cause?.code === 'LEVEL_LOCKED';
};

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * LevelDB, held by this process alone. A data dir another process holds (a server, a CLI
 * command) is refused rather than reached through its writer socket: a migration must see and
 * write the whole log with nobody appending meanwhile, and importing records is no writer op.
 */
const openLevelAlone = async (
  dataDir: string,
  catalog: Catalog,
  create: boolean,
): Promise<TransferableLog> => {
  const location = join(dataDir, 'log');
  if (!create && !(await exists(location)))
    throw new Error(`${dataDir} holds no intentlog log (no ${location})`);
  await prepareDataDir(dataDir);
  let db: LevelDb;
  try {
    db = await openClassicLevel(location);
  } catch (error) {
    if (!isLocked(error)) throw error;
    throw new Error(
      `${dataDir} is in use by another intentlog process (a server or a command): ` +
        'stop it first, migrate needs the data dir to itself',
      { cause: error },
    );
  }
  const opened = checkLogTail(db, location).then(() => levelEventLog(db, catalog));
  return opened.catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
};

/**
 * Opens a store to move records in or out of (`intentlog migrate`): a LevelDB data dir, or a
 * postgres:// URL. No writer election and no read models: the log itself, with RecordTransfer.
 * PostgreSQL is shared by design; its appends and imports serialize on the log's head lock.
 */
export const openTransferableLog = async (
  location: string,
  catalog: Catalog,
  options: TransferOpenOptions,
): Promise<TransferableLog> => {
  if (isPostgresUrl(location))
    return (await import('./postgres/index.js')).openPostgresEventLog(location, catalog);
  if (location === 'memory') throw new TypeError('the memory store holds nothing to migrate');
  return openLevelAlone(location, catalog, options.create);
};
