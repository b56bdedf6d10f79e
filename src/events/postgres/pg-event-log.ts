import {
  assertExpectedVersionMatchesCurrent,
  type AggregateStreamOptions,
  type Event,
  type ReadStreamOptions,
} from '@event-driven-io/emmett';
import pg from 'pg';
import type { Catalog } from '../catalog/catalog.js';
import { appendOneStream, assertDistinctStreams, type LogReadEventMetadata } from '../event-log.js';
import { foldCache, type FoldEntry } from '../fold-cache.js';
import { snapshotSpecOf } from '../snapshots/declare.js';
import { foldTail } from '../snapshots/fold-tail.js';
import { snapshotAccess, snapshotKeeper } from '../snapshots/snapshot-keeper.js';
import { openIdempotency, type StoredIdempotency } from '../idempotency-store.js';
import type { TransferableLog } from '../record-import.js';
import { levelModelStore } from '../level/level-model-store.js';
import { openMemoryLevel } from '../level/level-db.js';
import { aggregateStreamOver, readRange, streamReadResult } from '../stream-read.js';
import { toReadEvent } from '../record-view.js';
import { channelOf, parsePgLocation } from './connection.js';
import { pgGroupCommitter } from './pg-group-commit.js';
import { pgContentKeys, pgImport } from './pg-import.js';
import { pgLive } from './pg-live.js';
import { pgReader } from './pg-reader.js';
import { clearSnapshotsSql, pgSnapshots } from './pg-snapshots.js';
import { migrate } from './schema.js';

export type PgEventLogOptions = {
  /** bounded delay for events of other instances when NOTIFY is lost (default 1000 ms) */
  pollMs?: number;
  /** connections this instance may hold for reads and appends (default 10) */
  poolSize?: number;
  /** errors the live tail survives (failed reads, a lost listener); default: one line on stderr */
  onError?: (error: unknown) => void;
};

const logToStderr = (error: unknown): void => {
  process.stderr.write(`intentlog: postgres live tail: ${String(error)}\n`);
};

/** Far above an append transaction's few milliseconds between statements. */
const IDLE_IN_TRANSACTION_MS = 10_000;

/**
 * The log on PostgreSQL: one shared log for any number of server instances. Appends, reads,
 * idempotency and content keys live in the database; read models (`models`) are per instance,
 * in memory, rebuilt from the shared log by the projection engine.
 */
export const openPostgresEventLog = async (
  url: string,
  catalog: Catalog,
  options: PgEventLogOptions = {},
): Promise<TransferableLog> => {
  const { connectionString, schema } = parsePgLocation(url);
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    // An instance that vanishes mid-append (a partition rather than a crash, which closes the
    // socket) would hold the log's head lock, and with it every instance's appends, until TCP
    // gave up. The server ends such a transaction instead; the append fails, nothing is lost.
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    keepAlive: true,
  });
  pool.on('error', () => undefined); // an idle client died; the pool replaces it
  const client = await pool.connect();
  await migrate(client, schema).finally(() => client.release());

  const reader = pgReader(pool, schema, catalog);
  const channel = channelOf(schema);
  const live = pgLive({
    connectionString,
    channel,
    pollMs: options.pollMs ?? 1000,
    readAll: reader.readAll,
    onError: options.onError ?? logToStderr,
  });
  live.startAfter(await reader.head());
  const opened = async (stored: StoredIdempotency) => {
    const keys = await pgContentKeys(pool, `"${schema}"`, stored.subjects ?? []);
    return openIdempotency(stored, (subject) => keys.get(subject));
  };
  const committer = pgGroupCommitter({
    pool,
    schema,
    channel,
    catalog,
    committed: live.committed,
    openIdempotency: opened,
  });
  const models = await openMemoryLevel();

  const readStream = async <E extends Event, P extends Event = E>(
    name: string,
    options?: ReadStreamOptions<bigint, E, P>,
  ) => {
    const { from, to } = readRange(options);
    const read = await reader.readStream(name, from, to);
    assertExpectedVersionMatchesCurrent(BigInt(read.version), options?.expectedStreamVersion, 0n);
    return streamReadResult<E, P>(read.events.map(toReadEvent), read.version, options);
  };

  const aggregateAll = aggregateStreamOver(readStream);
  const folds = foldCache();
  const snapshots = pgSnapshots(pool, schema);
  const keeper = snapshotKeeper(snapshots);

  /**
   * A whole-stream fold starts from the state this fold last reached (fold-cache.ts), else from
   * its persisted snapshot (snapshots/), and reads only the events since, unless a shred (by any
   * instance) happened since that state was folded: then the whole stream is read and folded
   * again.
   */
  const aggregateStream = async <State, E extends Event, P extends Event = E>(
    name: string,
    options: AggregateStreamOptions<State, E, LogReadEventMetadata, P>,
  ) => {
    if (options.read) return aggregateAll(name, options);
    const began = keeper.epoch();
    const evolve = options.evolve as (state: State, event: unknown) => State;
    const spec = snapshotSpecOf(evolve);
    const start: FoldEntry | undefined =
      folds.get(evolve, name) ??
      (spec ? await keeper.load(spec, name, Number.MAX_SAFE_INTEGER) : undefined);
    let read = await reader.readStream(name, (start?.version ?? 0) + 1, Number.MAX_SAFE_INTEGER);
    let from =
      start && start.tag === read.shreds && start.version <= read.version ? start : undefined;
    if (start && !from) read = await reader.readStream(name, 1, Number.MAX_SAFE_INTEGER);
    from ??= { state: options.initialState(), version: 0 };
    const tail = read.events.map(toReadEvent);
    const { entry, ms } = foldTail(from, tail, evolve, read.version, read.shreds);
    folds.set(evolve, name, entry);
    if (spec) keeper.consider(spec, name, entry, ms, began);
    return {
      currentStreamVersion: BigInt(read.version),
      state: entry.state as State,
      streamExists: read.version > 0,
    };
  };

  const log: TransferableLog = {
    readStream,
    aggregateStream,
    appendToStream: (name, events, options) =>
      appendOneStream(committer.append, name, events, options),
    appendToStreams: async (appends, options) => {
      assertDistinctStreams(appends);
      return committer.append(appends, options ?? {});
    },
    streamExists: (name) => reader.streamExists(name),
    readAll: ({ after, limit }) => reader.readAll(after, limit),
    readProject: (projectId, { after, limit }) => reader.readProject(projectId, after, limit),
    readRaw: ({ after, limit }) => reader.readRaw(after, limit),
    head: () => reader.head(),
    live: () => live.observable(),
    getIdempotency: async (scope) => {
      const stored = await reader.idempotency(scope);
      return stored && opened(stored);
    },
    shred: async (subject) => {
      await shredSubject(pool, schema, subject);
      await keeper.invalidate();
    },
    contentKeys: (subjects) => pgContentKeys(pool, `"${schema}"`, subjects),
    importRecords: async (records, keys) => {
      await pgImport(pool, `"${schema}"`, channel, records, keys);
      folds.clear();
      await keeper.invalidate();
    },
    // read models live in this instance's memory; the content keys of sealed values in PostgreSQL
    models: levelModelStore(models, async (subjects) => {
      const keys = await pgContentKeys(pool, `"${schema}"`, [...new Set(subjects)]);
      return (subject) => keys.get(subject);
    }),
    snapshots: snapshotAccess(snapshots, keeper),
    async close() {
      await committer.drain();
      await keeper.settled();
      await live.close();
      await pool.end();
      await models.close();
    },
  };
  return log;
};

/**
 * Deletes a subject's content key under the head lock, counting the shred on the head row so an
 * append planned with the old key replans (pg-group-commit.ts), then vacuums the key table so
 * the deleted row's bytes are reclaimed.
 */
const shredSubject = async (pool: pg.Pool, schema: string, subject: string): Promise<void> => {
  const s = `"${schema}"`;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`UPDATE ${s}.log_head SET shreds = shreds + 1`);
    await client.query(`DELETE FROM ${s}.content_keys WHERE subject = $1`, [subject]);
    // a snapshot may hold the content in clear once opened: none outlives the shred (its key
    // goes in the same transaction)
    await client.query(clearSnapshotsSql(s));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await pool.query(`VACUUM ${s}.content_keys`);
};
