import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dumbo } from '@event-driven-io/dumbo';
import { readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import { ClassicLevel } from 'classic-level';
import { decode, type StoredRecord } from '../../src/events/index.js';
import { Keys } from '../../src/events/level/keys.js';
import { openEventLog } from '../../src/events/open-log.js';
import { allProjectors } from '../../src/modules/index.js';
import { startProjections } from '../../src/projections/index.js';
import { childArgs, reply } from '../child.js';
import { benchCatalog, benchProjector } from '../workload.js';

/** `at`: the data dir (level-*), or the postgres:// URL (ours-*, emmett). */
export type CompareReplayArgs = {
  at: string;
  mode: 'level-raw' | 'level-engine' | 'ours-raw' | 'ours-engine' | 'emmett-raw';
};
const { at, mode } = childArgs<CompareReplayArgs>();
const PAGE = 1000;

const timed = async (read: () => Promise<number>) => {
  const started = performance.now();
  const events = await read();
  return { events, ms: performance.now() - started };
};

const open = () =>
  openEventLog({
    dataDir: at,
    ...(mode.startsWith('ours') ? { store: at } : {}),
    catalog: benchCatalog,
  });

/**
 * As an instance starting up: every projector from empty read models (LevelDB's are cleared
 * first; PostgreSQL's are in memory, per instance).
 */
const engine = async () => {
  const log = await open();
  await log.models.clear('');
  const result = await timed(async () => {
    await (await startProjections(log, [...allProjectors, benchProjector])).stop();
    return log.head();
  });
  await log.close();
  return result;
};

/** LevelDB's reference (as child/replay.ts): iterate the global log, nextv(1000), decode. */
const levelRaw = async () => {
  const db = new ClassicLevel<Buffer, Buffer>(join(at, 'log'), {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
  });
  await db.open();
  const result = await timed(async () => {
    const iterator = db.iterator(Keys.globalRange(0));
    let events = 0;
    for (let page = await iterator.nextv(PAGE); page.length > 0; page = await iterator.nextv(PAGE))
      for (const [, value] of page) if (decode<StoredRecord>(value).global_position) events++;
    await iterator.close();
    return events;
  });
  await db.close();
  return result;
};

/** Our PostgreSQL store's reference: the stored records in global order, 1000 a page, decoded. */
const oursRaw = async () => {
  const log = await open();
  const result = await timed(async () => {
    let after = 0;
    for (let page = await log.readRaw({ after, limit: PAGE }); page.length > 0;) {
      after = page.at(-1)!.global_position;
      page = await log.readRaw({ after, limit: PAGE });
    }
    return after;
  });
  await log.close();
  return result;
};

/** Emmett's PostgreSQL store read as its consumers read it: readMessagesBatch, 1000 a page. */
const emmettRaw = async () => {
  const pool = dumbo({ connectionString: at });
  const result = await timed(async () => {
    let events = 0;
    for (let after = 0n; ;) {
      const batch = await readMessagesBatch(pool.execute, { after, batchSize: PAGE });
      if (batch.messages.length === 0) return events;
      events += batch.messages.length;
      after = batch.currentGlobalPosition;
    }
  });
  await pool.close();
  return result;
};

const modes = {
  'level-raw': levelRaw,
  'level-engine': engine,
  'ours-raw': oursRaw,
  'ours-engine': engine,
  'emmett-raw': emmettRaw,
};
reply(await modes[mode]());
