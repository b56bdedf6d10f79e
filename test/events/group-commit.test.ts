import { strict as assert } from 'node:assert';
import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import { describe, it } from 'node:test';
import {
  decode,
  GENESIS_HASH,
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  verifyChain,
  type LevelDb,
  type StoredRecord,
} from '../../src/events/index.js';
import { Prefix } from '../../src/events/level/keys.js';

const stream = (id: string) => streamName({ aggregateType: 't', projectId: 'p', aggregateId: id });
const ev = (i: number) => ({ type: 'thing.done', data: { i } });
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A memory-level database whose durable batch writes wait at a gate the test opens, and can be
 * made to fail: what a slow or broken disk looks like to group commit. Each write is traced as
 * the `data.i` of the events it holds (or `shred` for a deletion), when it starts and ends.
 */
const gatedDb = async () => {
  const db: LevelDb = await openMemoryLevel();
  const trace: string[] = [];
  const gates: { open: () => void; fail: (error: Error) => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const batch = db.batch.bind(db) as () => ReturnType<LevelDb['batch']>;
  (db as { batch: unknown }).batch = (...args: unknown[]) => {
    if (args.length > 0) return (batch as (...a: unknown[]) => unknown)(...args);
    const chained = batch();
    const holds: string[] = [];
    const put = chained.put.bind(chained);
    chained.put = ((key: Buffer, value: Buffer) => {
      if (key[0] === Prefix.global) holds.push(String(decode<StoredRecord>(value).data!.i));
      return put(key, value);
    }) as typeof chained.put;
    const del = chained.del.bind(chained);
    chained.del = ((key: Buffer) => {
      holds.push('shred');
      return del(key);
    }) as typeof chained.del;
    const write = chained.write.bind(chained);
    chained.write = (async (options?: Parameters<typeof write>[0]) => {
      const what = `[${holds.join(' ')}]`;
      trace.push(`write ${what}`);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        await new Promise<void>((resolve, reject) => gates.push({ open: resolve, fail: reject }));
        await write(options ?? {});
        trace.push(`durable ${what}`);
      } finally {
        inFlight--;
      }
    }) as typeof chained.write;
    return chained;
  };
  return {
    db,
    trace,
    mostInFlight: () => mostInFlight,
    waiting: () => gates.length,
    fail: (error: Error) => gates.shift()!.fail(error),
    /** opens the gate for every write until all of `promises` have settled */
    drain: async (promises: Promise<unknown>[]) => {
      let settled = false;
      void Promise.allSettled(promises).then(() => (settled = true));
      while (!settled) {
        await turns(1);
        gates.shift()?.open();
      }
    },
  };
};

describe('pipelined group commit', () => {
  it('stages appends while a batch is written, and writes them once it is durable', async () => {
    const disk = await gatedDb();
    const log = await levelEventLog(disk.db, openCatalog);
    const first = log.appendToStream(stream('a'), [ev(1)]);
    await turns();
    const more = [2, 3, 4, 5].map((i) => log.appendToStream(stream(`s${i}`), [ev(i)]));
    await turns();
    assert.deepEqual(disk.trace, ['write [1]'], 'one write at a time');
    await disk.drain([first, ...more]);
    assert.equal(disk.mostInFlight(), 1);
    const writes = disk.trace.filter((t) => t.startsWith('write'));
    assert.equal(writes.length * 2, disk.trace.length);
    disk.trace.forEach((t, n) =>
      assert.equal(t, `${n % 2 ? 'durable' : 'write'} ${writes[n >> 1]!.slice(6)}`),
    );
    assert.deepEqual(
      writes.flatMap((w) => w.slice(7, -1).split(' ')),
      ['1', '2', '3', '4', '5'],
      'every event in one write, in order',
    );
    assert.deepEqual(
      (await Promise.all(more)).map((r) => r.lastEventGlobalPosition),
      [2n, 3n, 4n, 5n],
    );
    const raw = await log.readRaw({ after: 0, limit: 10 });
    assert.equal(verifyChain(raw, GENESIS_HASH), undefined);
    await log.close();
  });

  it('when a batch fails to write, stages what was staged on it again, without a gap', async () => {
    const disk = await gatedDb();
    const log = await levelEventLog(disk.db, openCatalog);
    const live: number[] = [];
    log.live().subscribe((e) => live.push(e.global_position));
    const kept = log.appendToStream(stream('a'), [ev(0)]);
    await disk.drain([kept]);
    const lost = log.appendToStream(stream('a'), [ev(1)]);
    await turns();
    const onTop = log.appendToStream(stream('b'), [ev(2)]);
    // expects the version the failed append would have made
    const dependent = log.appendToStream(stream('a'), [ev(3)], { expectedStreamVersion: 2n });
    await turns();
    const queued = log.appendToStream(stream('c'), [ev(4)]);
    await turns();
    assert.deepEqual(disk.trace, ['write [0]', 'durable [0]', 'write [1]']);
    disk.fail(new Error('disk full'));
    await assert.rejects(lost, /disk full/);
    const next = log.appendToStream(stream('a'), [ev(5)], { expectedStreamVersion: 1n });
    await disk.drain([onTop, dependent, queued, next]);
    await assert.rejects(dependent, isExpectedVersionConflictError);
    assert.equal((await onTop).lastEventGlobalPosition, 2n);
    assert.equal((await queued).lastEventGlobalPosition, 3n);
    assert.equal((await next).nextExpectedStreamVersion, 2n);

    const raw = await log.readRaw({ after: 0, limit: 10 });
    assert.deepEqual(
      raw.map((r) => [r.global_position, r.data!.i]),
      [
        [1, 0],
        [2, 2],
        [3, 4],
        [4, 5],
      ],
    );
    assert.equal(verifyChain(raw, GENESIS_HASH), undefined);
    assert.deepEqual(live, [1, 2, 3, 4]);
    await log.close();
  });

  it('tells a version conflict once the append that won is durable, so a retry reads its head', async () => {
    const disk = await gatedDb();
    const log = await levelEventLog(disk.db, openCatalog);
    const won = log.appendToStream(stream('a'), [ev(1)], { expectedStreamVersion: 0n });
    const lost = log.appendToStream(stream('a'), [ev(2)], { expectedStreamVersion: 0n });
    let told: { trace: string[]; version: bigint } | undefined;
    const retried = lost.catch(async (error: unknown) => {
      const trace = [...disk.trace];
      told = { trace, version: (await log.readStream(stream('a'))).currentStreamVersion };
      throw error;
    });
    await turns();
    assert.deepEqual(disk.trace, ['write [1]']);
    assert.equal(told, undefined, 'not told while the append it lost to is not durable');
    await disk.drain([won, retried]);
    await assert.rejects(retried, isExpectedVersionConflictError);
    assert.deepEqual(told, { trace: ['write [1]', 'durable [1]'], version: 1n });
    await log.close();
  });

  it('goes on after a batch in which every append failed', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    await log.appendToStream(stream('a'), [ev(1)]);
    const refused = await Promise.allSettled(
      [0n, 5n].map((v) => log.appendToStream(stream('a'), [ev(2)], { expectedStreamVersion: v })),
    );
    assert.deepEqual(
      refused.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    await turns(); // the empty batch is written and the committer goes idle
    assert.equal((await log.appendToStream(stream('a'), [ev(3)])).nextExpectedStreamVersion, 2n);
    await log.close();
  });

  it('runs a shred after the appends queued before it are durable, and before those after it', async () => {
    const disk = await gatedDb();
    const log = await levelEventLog(disk.db, openCatalog);
    const before = log.appendToStream(stream('a'), [ev(1)]);
    await turns();
    const staged = log.appendToStream(stream('b'), [ev(2)]);
    await turns();
    const shred = log.shred('someone');
    const after = log.appendToStream(stream('c'), [ev(3)]);
    await disk.drain([before, staged, shred, after]);
    assert.deepEqual(
      disk.trace.filter((t) => t.startsWith('durable')),
      ['durable [1]', 'durable [2]', 'durable [shred]', 'durable [3]'],
    );
    await log.close();
  });
});
