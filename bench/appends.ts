import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getInMemoryEventStore, type Event } from '@event-driven-io/emmett';
import { ClassicLevel } from 'classic-level';
import { planAppend } from '../src/events/append-plan.js';
import {
  encode,
  GENESIS_HASH,
  openCatalog,
  SYSTEM_META,
  type EventLog,
} from '../src/events/index.js';
import { Keys } from '../src/events/level/keys.js';
import { openEventLog } from '../src/events/open-log.js';
import { perSecond } from './stats.js';
import { benchCatalog, benchCommand, benchStream, payload, PROJECTS, STREAMS } from './workload.js';

/** Events per second, and the process's CPU time per event (all threads: LevelDB's too). */
export type Rate = { rate: number; cpuUs: number };

const measure = () => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  return {
    stop: (events: number): Rate => {
      const used = process.cpuUsage(cpu);
      return {
        rate: perSecond(events, performance.now() - started),
        cpuUs: (used.user + used.system) / events,
      };
    },
  };
};

const scratch = () => mkdtemp(join(tmpdir(), 'intentlog-bench-'));

/** `writers` concurrent loops of commands on random streams; events/s. */
export const drive = async (log: EventLog, writers: number, perWriter: number): Promise<Rate> => {
  let n = 0;
  const writer = async () => {
    for (let i = 0; i < perWriter; i++)
      await benchCommand(log, benchStream(Math.floor(Math.random() * STREAMS)), n++);
  };
  const clock = measure();
  await Promise.all(Array.from({ length: writers }, writer));
  return clock.stop(writers * perWriter);
};

/**
 * Steady state: one command on every stream first (JIT warm, each stream loaded once), so the
 * figure is a running writer's. The first load of a stream from disk is what the command
 * latency measurement shows.
 */
export const warmUp = async (log: EventLog): Promise<void> => {
  let next = 0;
  const writer = async () => {
    while (next < STREAMS) await benchCommand(log, benchStream(next), next++);
  };
  await Promise.all(Array.from({ length: 32 }, writer));
};

/** The full command path on the embedded LevelDB store, durable (group commit, sync: true). */
export const commandPathLevelDbRate = async (writers: number, perWriter: number): Promise<Rate> => {
  const dir = await scratch();
  const log = await openEventLog({ dataDir: dir, catalog: benchCatalog });
  try {
    await warmUp(log);
    return await drive(log, writers, perWriter);
  } finally {
    await log.close();
    await rm(dir, { recursive: true, force: true });
  }
};

/** The same command path on Emmett's in-memory store (no durability at all). */
export const commandPathEmmettMemoryRate = async (writers: number, perWriter: number) => {
  const emmett = getInMemoryEventStore();
  // The command path appends through appendToStreams; Emmett's store has only appendToStream,
  // which is all a one-stream command needs.
  const store = {
    ...emmett,
    getIdempotency: async () => undefined,
    appendToStreams: async (appends: { streamName: string; events: readonly Event[] }[]) => {
      const [one] = appends;
      const appended = await emmett.appendToStream(one!.streamName, [...one!.events]);
      return {
        lastEventGlobalPosition: appended.nextExpectedStreamVersion,
        lastCursor: 0,
        streams: [],
      };
    },
  } as unknown as EventLog;
  await warmUp(store);
  return drive(store, writers, perWriter);
};

/** Stored-record bytes exactly like the log writes them (envelope, hash chain, ~250-byte data). */
const sampleRecords = (count: number): Buffer[] => {
  const plan = planAppend({
    streamName: benchStream(1),
    events: Array.from({ length: count }, (_, i) => ({ type: 'bench.recorded', data: payload(i) })),
    meta: SYSTEM_META,
    expected: undefined,
    streamVersion: 0,
    projectHead: { cursor: 0, hash: GENESIS_HASH },
    globalPosition: 0,
    catalog: openCatalog,
    keyFor: () => Buffer.alloc(32),
  });
  return plan.records.map((r) => encode(r));
};

type RawDb = ClassicLevel<Buffer, Buffer>;

/**
 * The keys the log writes besides the record, as it writes them: its stream and project index
 * entries.
 */
const logIndex = (batch: ReturnType<RawDb['batch']>, position: number) => {
  const stream = benchStream(position);
  const version = Math.floor(position / STREAMS) + 1;
  batch.put(Keys.stream(stream, version), Keys.global(position).subarray(1));
  batch.put(
    Keys.project(`project-${position % PROJECTS}`, position),
    Keys.global(position).subarray(1),
  );
};

/**
 * Runs `use` on fresh raw classic-level databases, one per name, in one scratch dir, with the
 * record bytes the log writes.
 */
const withRawDbs = async <T>(
  names: string[],
  use: (dbs: RawDb[], values: Buffer[]) => Promise<T>,
): Promise<T> => {
  const dir = await scratch();
  const dbs = names.map(
    (name) =>
      new ClassicLevel<Buffer, Buffer>(join(dir, name), {
        keyEncoding: 'buffer',
        valueEncoding: 'buffer',
      }),
  );
  try {
    await Promise.all(dbs.map((db) => db.open()));
    return await use(dbs, sampleRecords(1024));
  } finally {
    await Promise.all(dbs.map((db) => db.close()));
    await rm(dir, { recursive: true, force: true });
  }
};
const withRawDb = <T>(use: (db: RawDb, values: Buffer[]) => Promise<T>): Promise<T> =>
  withRawDbs(['raw'], ([db], values) => use(db!, values));

/** MB LevelDB's compactions wrote (the Write(MB) column of `leveldb.stats`, all levels). */
const compactionMb = async (db: RawDb): Promise<number> =>
  (await db.getProperty('leveldb.stats'))
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((cells) => cells.length === 6 && cells.every((n) => !Number.isNaN(n)))
    .reduce((sum, cells) => sum + cells[5]!, 0);

/**
 * Where a raw write puts the log's index entries: nowhere (bare records, the reference), in the
 * same batch (what the log writes, key for key), or in a second database written without
 * `sync` beside each durable batch (an experiment: bench/shapes.ts).
 */
export type IndexPlacement = 'none' | 'with' | 'apart';

/**
 * The physical reference: raw classic-level chained batches with `sync: true`, `batch` events
 * each (1 = one durable write per event; 32 = what group commit could do for 32 writers), of
 * the record bytes the log writes, with the log's index entries placed as `index` says.
 */
export const rawLevelDbRate = (
  batch: number,
  events: number,
  index: IndexPlacement = 'none',
): Promise<Rate & { compactionMb: number }> =>
  withRawDbs(index === 'apart' ? ['raw', 'index'] : ['raw'], async ([db, apart], values) => {
    let position = 0;
    const run = async (count: number) => {
      const clock = measure();
      for (let written = 0; written < count; written += batch) {
        const b = db!.batch();
        const entries = index === 'apart' ? apart!.batch() : index === 'with' ? b : undefined;
        for (let i = 0; i < batch; i++, position++) {
          b.put(Keys.global(position + 1), values[position % values.length]!);
          if (entries) logIndex(entries, position + 1);
        }
        if (entries && entries !== b) await Promise.all([b.write({ sync: true }), entries.write()]);
        else await b.write({ sync: true });
      }
      return clock.stop(count);
    };
    await run(Math.min(50 * batch, events));
    const rate = await run(events);
    return { ...rate, compactionMb: await compactionMb(db!) };
  });

/**
 * 32 closed-loop writers each making its own events durable with raw classic-level, one
 * `sync: true` batch per event: LevelDB's own write queue groups what reaches it concurrently
 * (as many as libuv has threads), with no group commit of ours.
 */
export const rawConcurrentRate = (writers: number, perWriter: number): Promise<Rate> =>
  withRawDb(async (db, values) => {
    let position = 0;
    const writer = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const at = ++position;
        await db
          .batch()
          .put(Keys.global(at), values[at % values.length]!)
          .write({ sync: true });
      }
    };
    await Promise.all(Array.from({ length: writers }, () => writer(20)));
    const clock = measure();
    await Promise.all(Array.from({ length: writers }, () => writer(perWriter)));
    return clock.stop(writers * perWriter);
  });

export const recordBytes = (): number => sampleRecords(1)[0]!.length;

/** The same measurements as plain events/s (what bench/postgres.ts compares with). */
export const commandPathLevelDb = async (writers: number, perWriter: number): Promise<number> =>
  (await commandPathLevelDbRate(writers, perWriter)).rate;
export const commandPathEmmettMemory = async (writers: number, perWriter: number) =>
  (await commandPathEmmettMemoryRate(writers, perWriter)).rate;
export const rawLevelDb = async (batch: number, events: number, index?: IndexPlacement) =>
  (await rawLevelDbRate(batch, events, index)).rate;
