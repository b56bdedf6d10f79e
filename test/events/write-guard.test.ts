import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { domainErrorOf } from '../../src/commands/store-errors.js';
import type { WriteFault } from '../../src/events/event-log.js';
import {
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  type LevelDb,
} from '../../src/events/index.js';
import { guardWrites } from '../../src/events/level/write-guard.js';

const stream = streamName({ aggregateType: 't', projectId: 'p', aggregateId: 'a' });
const ev = (i: number) => ({ type: 'thing.done', data: { i } });

const enospc = () =>
  Object.assign(new Error('IO error: /data/log/000003.log: No space left on device'), {
    code: 'LEVEL_IO_ERROR',
  });

/** A memory-level database whose disk the test fills and frees, guarded as the writer's is. */
const fullableDb = async () => {
  const db: LevelDb = await openMemoryLevel();
  let full = false;
  let writes = 0;
  let probes = 0;
  const batch = db.batch.bind(db) as () => ReturnType<LevelDb['batch']>;
  (db as { batch: unknown }).batch = () => {
    const chained = batch();
    const write = chained.write.bind(chained);
    chained.write = (async (options?: Parameters<typeof write>[0]) => {
      writes++;
      if (full) throw enospc();
      return write(options ?? {});
    }) as typeof chained.write;
    return chained;
  };
  const faults: WriteFault[] = [];
  const guard = guardWrites(db, {
    dataDir: '/unused',
    location: '/unused/log',
    onFault: (fault) => faults.push(fault),
    probe: async () => {
      probes++;
      if (full)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    },
  });
  const log = await levelEventLog(db, openCatalog, guard.fault);
  return {
    log,
    guard,
    faults,
    fill: () => void (full = true),
    free: () => void (full = false),
    counts: () => ({ writes, probes }),
  };
};

const append = (log: Awaited<ReturnType<typeof fullableDb>>['log'], i: number) =>
  log.appendToStream(stream, [ev(i)]);

describe('a store whose disk fills (write-guard.ts)', () => {
  it('refuses later writes at once naming ENOSPC, still reads, and asks to reopen once space returns', async () => {
    const store = await fullableDb();
    const { log, guard } = store;
    try {
      await append(log, 1);
      // Given a full disk: the write that meets it fails with the disk's error
      store.fill();
      await assert.rejects(append(log, 2), /No space left on device/);
      assert.equal(store.faults.length, 1);
      assert.equal(guard.fault()?.cause, 'ENOSPC');
      assert.equal((await log.writeFault?.())?.cause, 'ENOSPC');

      // When more writes come: each is refused without touching the disk, after a probe
      const before = store.counts();
      const refused = await append(log, 3).then(
        () => assert.fail('a write on a full disk succeeded'),
        (error: unknown) => error,
      );
      assert.deepEqual(store.counts(), { writes: before.writes, probes: before.probes + 1 });
      const answer = domainErrorOf(refused);
      assert.equal(answer?.code, 'unavailable');
      assert.equal(answer?.details.cause, 'ENOSPC');

      // reads answer from what is durable
      assert.equal(await log.head(), 1);
      assert.deepEqual(
        (await log.readAll({ after: 0, limit: 10 })).map((e) => e.data),
        [{ i: 1 }],
      );

      // Then once space returns the next write's probe passes: the store is to be reopened,
      // and that write is told to retry (nothing of it was written)
      store.free();
      let reopened = false;
      void guard.failed.then(() => (reopened = true));
      await assert.rejects(append(log, 4), { code: 'store_reopening' });
      await Promise.resolve();
      assert.equal(reopened, true);
      assert.equal(await log.head(), 1);
      assert.equal(store.faults.length, 1, 'the fault is told once');
    } finally {
      guard.stop();
      await log.close();
    }
  });

  it('probes on its own while idle, so the store reopens without a write', async () => {
    const store = await fullableDb();
    try {
      store.fill();
      await assert.rejects(append(store.log, 1));
      store.free();
      const why = await Promise.race([
        store.guard.failed.then(() => 'reopen'),
        new Promise((resolve) => setTimeout(() => resolve('no probe'), 3_000)),
      ]);
      assert.equal(why, 'reopen');
      assert.ok(store.counts().probes >= 1);
    } finally {
      store.guard.stop();
      await store.log.close();
    }
  });

  it('reopens at once after a failure that is no I/O cause (nothing to wait for)', async () => {
    const db: LevelDb = await openMemoryLevel();
    const batch = db.batch.bind(db) as () => ReturnType<LevelDb['batch']>;
    (db as { batch: unknown }).batch = () => {
      const chained = batch();
      chained.write = (async () => {
        throw new Error('Corruption: bad block');
      }) as typeof chained.write;
      return chained;
    };
    const guard = guardWrites(db, { dataDir: '/unused', location: '/unused/log' });
    const log = await levelEventLog(db, openCatalog, guard.fault);
    try {
      await assert.rejects(append(log, 1), /Corruption/);
      assert.match(String(await guard.failed), /Corruption/);
      assert.equal(guard.fault()?.cause, 'unknown');
    } finally {
      guard.stop();
      await log.close();
    }
  });
});
