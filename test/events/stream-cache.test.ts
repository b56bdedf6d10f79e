import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  type LogEvent,
} from '../../src/events/index.js';
import { streamCache } from '../../src/events/level/stream-cache.js';

const event = (stream: string, version: number): LogEvent =>
  ({
    stream_name: stream,
    stream_version: version,
    global_position: version,
    data: {},
  }) as LogEvent;
const versions = (events: { metadata: { streamPosition: bigint } }[] | undefined) =>
  events?.map((e) => Number(e.metadata.streamPosition));

describe('the writer stream cache', () => {
  it('extends a cached stream with its next committed event and drops it on a gap', () => {
    const cache = streamCache();
    cache.committed([event('a', 1), event('a', 2), event('b', 1)]);
    assert.deepEqual(versions(cache.get('a', 2)), [1, 2]);
    assert.equal(cache.get('a', 3), undefined, 'a stale length is a miss');
    cache.committed([event('b', 3)]);
    assert.equal(cache.get('b', 1), undefined);
    assert.equal(cache.get('b', 3), undefined);
  });

  it('hands out copies: a caller changing its array changes nothing cached', () => {
    const cache = streamCache();
    cache.committed([event('a', 1)]);
    const first = cache.get('a', 1)!;
    first.pop();
    cache.committed([event('a', 2)]);
    assert.deepEqual(versions(first), []);
    assert.deepEqual(versions(cache.get('a', 2)), [1, 2]);
  });

  it('evicts the least recently used streams beyond its limit', () => {
    const cache = streamCache(20);
    cache.committed(Array.from({ length: 20 }, (_, i) => event(`s${i}`, 1)));
    cache.get('s0', 1);
    cache.committed([event('s20', 1)]);
    assert.equal(cache.get('s1', 1), undefined);
    assert.deepEqual(versions(cache.get('s0', 1)), [1]);
    assert.deepEqual(versions(cache.get('s20', 1)), [1]);
  });
});

describe('long streams', () => {
  it('the stream cache takes a stream of 20,000 events', () => {
    const cache = streamCache();
    cache.committed(Array.from({ length: 20_000 }, (_, i) => event('long', i + 1)));
    assert.equal(cache.get('long', 20_000)?.length, 20_000);
    assert.deepEqual(versions(cache.since('long', 20_000, 19_998)), [19_999, 20_000]);
  });

  it('a whole-stream fold folds only the events since its last load, and again after a shred', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const name = streamName({ aggregateType: 't', projectId: 'p', aggregateId: 'long' });
    const batch = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 'thing.done', data: { i: from + i } }));
    for (let i = 0; i < 20; i++) await log.appendToStream(name, batch(i * 1000, 1000));
    let folded = 0;
    const fold = {
      initialState: () => ({ sum: 0, said: '' }),
      evolve: (s: { sum: number; said: string }, e: { data: Record<string, unknown> }) => {
        folded++;
        return { sum: s.sum + Number(e.data.i ?? 0), said: String(e.data.text ?? s.said) };
      },
    };
    const first = await log.aggregateStream(name, fold);
    assert.equal(folded, 20_000);
    assert.equal(first.currentStreamVersion, 20_000n);
    await log.appendToStream(name, [
      { type: 'thing.said', data: { text: 'SECRET' }, metadata: { seal: 's1' } } as never,
    ]);
    await log.appendToStream(name, batch(20_000, 1));
    const second = await log.aggregateStream(name, fold);
    assert.equal(folded, 20_002);
    assert.deepEqual(second.state, { sum: (20_001 * 20_000) / 2, said: 'SECRET' });
    assert.equal(second.currentStreamVersion, 20_002n);
    assert.equal((await log.aggregateStream(name, fold)).state, second.state);
    assert.equal(folded, 20_002);
    await log.shred('s1');
    const third = await log.aggregateStream(name, fold);
    assert.equal(folded, 40_004, 'a shred drops every fold: the stream is folded again');
    assert.equal(third.state.said, '');
    await log.close();
  });
});

describe('readStream on the embedded log', () => {
  it('answers each read with an array of its own, served from the cache after a commit', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const name = streamName({ aggregateType: 't', projectId: 'p', aggregateId: 'x' });
    await log.appendToStream(name, [{ type: 'thing.done', data: { i: 1 } }]);
    const first = await log.readStream(name);
    first.events.length = 0;
    await log.appendToStream(name, [{ type: 'thing.done', data: { i: 2 } }]);
    const second = await log.readStream(name);
    assert.deepEqual(
      second.events.map((e) => e.data),
      [{ i: 1 }, { i: 2 }],
    );
    assert.equal(second.currentStreamVersion, 2n);
    const upTo1 = await log.readStream(name, { to: 1n });
    assert.deepEqual(
      upTo1.events.map((e) => e.data),
      [{ i: 1 }],
    );
    await log.close();
  });
});
