import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from './catalog/catalog.js';
import type { EventLog } from './event-log.js';
import { openClassicLevel, openMemoryLevel } from './level/level-db.js';
import { levelEventLog } from './level/level-event-log.js';
import { isPostgresUrl } from './postgres/connection.js';

export type OpenLogOptions = {
  /** LevelDB data directory; ignored for other stores */
  dataDir: string;
  /** `memory`, or a postgres:// URL; default: LevelDB in dataDir */
  store?: string;
  catalog: Catalog;
};

/** PostgreSQL: every instance appends itself (postgres/; loaded only when asked for). */
const openPostgres = async (url: string, catalog: Catalog): Promise<EventLog> =>
  (await import('./postgres/index.js')).openPostgresEventLog(url, catalog);

/** Opens the log this process will use. */
export const openEventLog = async (options: OpenLogOptions): Promise<EventLog> => {
  if (options.store === 'memory') return levelEventLog(await openMemoryLevel(), options.catalog);
  if (isPostgresUrl(options.store)) return openPostgres(options.store, options.catalog);
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  return levelEventLog(await openClassicLevel(join(options.dataDir, 'log')), options.catalog);
};
