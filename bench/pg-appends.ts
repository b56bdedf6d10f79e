import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import type { EventLog } from '../src/events/index.js';
import { openEventLog } from '../src/events/open-log.js';
import { perSecond } from './stats.js';
import { benchCatalog, benchCommand, benchStream, STREAMS } from './workload.js';

/**
 * Durable appends through the command path (`runCommand`: load the stream, decide, append with
 * the expected version) on our PostgreSQL store, Emmett's own PostgreSQL store on the same
 * database, and LevelDB: the workload and method of bench/appends.ts, repeated here so this
 * comparison does not move when that file does.
 */

/** `writers` concurrent loops of commands on random streams; events/s. */
const drive = async (log: EventLog, writers: number, perWriter: number): Promise<number> => {
  let n = 0;
  const writer = async () => {
    for (let i = 0; i < perWriter; i++)
      await benchCommand(log, benchStream(Math.floor(Math.random() * STREAMS)), n++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: writers }, writer));
  return perSecond(writers * perWriter, performance.now() - started);
};

/** One command on every stream first, as bench/appends.ts does: a running writer's figure. */
const warmUp = async (log: EventLog): Promise<void> => {
  let next = 0;
  const writer = async () => {
    while (next < STREAMS) await benchCommand(log, benchStream(next), next++);
  };
  await Promise.all(Array.from({ length: 32 }, writer));
};

/** The embedded LevelDB store as the product opens it, in a fresh data dir. */
export const commandPathLevel = async (writers: number, perWriter: number): Promise<number> => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-bench-pg-level-'));
  const log = await openEventLog({ dataDir: dir, catalog: benchCatalog });
  try {
    await warmUp(log);
    return await drive(log, writers, perWriter);
  } finally {
    await log.close();
    await rm(dir, { recursive: true, force: true });
  }
};

/** Our PostgreSQL store as the product opens it (`openEventLog` with a postgres:// store). */
export const commandPathPostgres = async (
  store: string,
  writers: number,
  perWriter: number,
): Promise<number> => {
  const log = await openEventLog({ dataDir: '', store, catalog: benchCatalog });
  try {
    await warmUp(log);
    return await drive(log, writers, perWriter);
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
    return await drive(log, writers, perWriter);
  } finally {
    await store.close();
  }
};
