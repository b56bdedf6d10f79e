import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import type { EventLog } from '../src/events/index.js';
import { openEventLog } from '../src/events/open-log.js';
import { drive, warmUp } from './appends.js';
import { benchCatalog } from './workload.js';

/**
 * Durable appends through the command path (`runCommand`: load the stream, decide, append with
 * the expected version) on our PostgreSQL store and Emmett's own PostgreSQL store on the same
 * database, by the workload and method of bench/appends.ts (whose LevelDB figure sits beside them).
 */

const eventsPerSecond = async (log: EventLog, writers: number, perWriter: number) =>
  (await drive(log, writers, perWriter)).rate;

/** Our PostgreSQL store as the product opens it (`openEventLog` with a postgres:// store). */
export const commandPathPostgres = async (
  store: string,
  writers: number,
  perWriter: number,
): Promise<number> => {
  const log = await openEventLog({ dataDir: '', store, catalog: benchCatalog });
  try {
    await warmUp(log);
    return await eventsPerSecond(log, writers, perWriter);
  } finally {
    await log.close();
  }
};

/**
 * Emmett's PostgreSQL store (emmett-postgresql 0.42.0), emptied first: it keeps its tables in
 * `public` of the database, so every run truncates them rather than taking a fresh schema.
 */
export const commandPathEmmettPostgres = async (
  database: string,
  writers: number,
  perWriter: number,
): Promise<number> => {
  const store = getPostgreSQLEventStore(database);
  try {
    await store.schema.dangerous.truncate();
    const log = store as unknown as EventLog;
    await warmUp(log);
    return await eventsPerSecond(log, writers, perWriter);
  } finally {
    await store.close();
  }
};
