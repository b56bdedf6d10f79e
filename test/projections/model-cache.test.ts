import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  entryWeight,
  MODEL_CACHE_BYTES,
  modelCache,
  type ModelCache,
} from '../../src/projections/model-cache.js';
import { weigh } from '../../src/projections/value-weight.js';

/** What the cache answers for a key: `{ value }` (undefined: known absent), or undefined: ask the store. */
const read = (cache: ModelCache, key: string) => {
  const hit = cache.get(key);
  return hit && { value: hit.value };
};

/** A cache with room for exactly `n` entries of a 3-character key and a number. */
const roomFor = (n: number) => modelCache({ bytes: n * entryWeight('a/1', 1) });

describe('the engine model cache', () => {
  it('answers a key of an emptied keyspace as absent without the store', () => {
    const cache = modelCache();
    assert.equal(read(cache, 'a/1'), undefined, 'unknown: ask the store');
    cache.emptied('a/');
    assert.deepEqual(read(cache, 'a/1'), { value: undefined }, 'known absent');
    assert.equal(read(cache, 'b/1'), undefined, 'another keyspace is still unknown');
    cache.committed([{ type: 'put', key: 'a/1', value: 7 }]);
    assert.deepEqual(read(cache, 'a/1'), { value: 7 });
  });

  it('forgets what was under the emptied prefix', () => {
    const cache = modelCache();
    cache.set('a/1', 1);
    cache.set('b/1', 2);
    cache.emptied('a/');
    assert.deepEqual(read(cache, 'a/1'), { value: undefined });
    assert.deepEqual(read(cache, 'b/1'), { value: 2 }, 'other keyspaces keep their entries');
  });

  it('stops answering absent once an entry of the keyspace leaves the cache', () => {
    const cache = roomFor(2);
    cache.emptied('a/');
    cache.committed([
      { type: 'put', key: 'a/1', value: 1 },
      { type: 'put', key: 'a/2', value: 2 },
      { type: 'put', key: 'a/3', value: 3 },
    ]);
    // a/1 was evicted: the store holds it, so the cache must not say it is absent
    assert.equal(read(cache, 'a/1'), undefined);
    assert.equal(read(cache, 'a/9'), undefined);
    assert.deepEqual(read(cache, 'a/3'), { value: 3 });
  });

  it('a keyspace stays whole while its keys are written again', () => {
    const cache = roomFor(4);
    cache.emptied('a/');
    for (let i = 0; i < 10; i++) cache.committed([{ type: 'put', key: 'a/1', value: i }]);
    assert.deepEqual(read(cache, 'a/1'), { value: 9 });
    assert.deepEqual(read(cache, 'a/2'), { value: undefined }, 'still known absent');
  });

  it('keeps no value larger than its bound, and its keyspace is then no longer whole', () => {
    const cache = modelCache({ bytes: 10_000 });
    cache.emptied('a/');
    cache.committed([{ type: 'put', key: 'a/big', value: 'x'.repeat(20_000) }]);
    assert.equal(read(cache, 'a/big'), undefined, 'read from the store');
    assert.equal(read(cache, 'a/other'), undefined, 'the keyspace is not whole any more');
  });

  it('clear forgets everything, whole keyspaces included', () => {
    const cache = modelCache();
    cache.emptied('a/');
    cache.clear();
    assert.equal(read(cache, 'a/1'), undefined);
  });

  it('holds at most its bound in bytes, the values written longest ago going first', () => {
    // a replay's memory stands on this bound (bench/RESULTS.md, sessions 15 and 19)
    assert.equal(MODEL_CACHE_BYTES, 24 * 2 ** 20);
    const bytes = 1_000_000;
    const cache = modelCache({ bytes });
    const view = (i: number) => ({
      id: `story-${String(i).padStart(5, '0')}`,
      text: 'x'.repeat(1000),
      tags: [i, 'a'],
    });
    const each = entryWeight('a/00000', view(0));
    const n = 5_000;
    for (let i = 0; i < n; i++)
      cache.committed([{ type: 'put', key: `a/${String(i).padStart(5, '0')}`, value: view(i) }]);
    assert.ok(cache.held() <= bytes, `${cache.held()} bytes held`);
    const fits = Math.floor(bytes / each);
    const key = (i: number) => `a/${String(i).padStart(5, '0')}`;
    assert.deepEqual(read(cache, key(n - 1)), { value: view(n - 1) }, 'the newest is kept');
    assert.notEqual(read(cache, key(n - fits + 1)), undefined);
    assert.equal(read(cache, key(n - fits - 1)), undefined, 'older ones were evicted');
    assert.equal(read(cache, key(0)), undefined);
  });

  it('weighs a value by what it holds: strings by their length, containers by their members', () => {
    assert.ok(weigh('x'.repeat(1000)) > 1000);
    assert.ok(weigh({ a: 'x'.repeat(1000) }) > weigh('x'.repeat(1000)));
    assert.ok(weigh([1, 2, 3]) > weigh([1]));
    assert.ok(weigh(Buffer.alloc(500)) >= 500);
    assert.equal(weigh(null), 0);
  });

  it('evicts in the order keys were last written, across many evictions and a clear', () => {
    const cache = roomFor(3);
    const kept = (keys: string[]) => keys.filter((k) => read(cache, k) !== undefined);
    for (const k of ['a/1', 'a/2', 'a/3']) cache.set(k, 1);
    cache.set('a/1', 2); // now the newest
    cache.set('a/4', 4); // evicts a/2
    assert.deepEqual(kept(['a/1', 'a/2', 'a/3', 'a/4']), ['a/1', 'a/3', 'a/4']);
    cache.set('a/5', 5); // evicts a/3
    cache.set('a/3', 3); // back in, evicts a/1
    assert.deepEqual(kept(['a/1', 'a/2', 'a/3', 'a/4', 'a/5']), ['a/3', 'a/4', 'a/5']);
    cache.clear();
    for (const k of ['b/1', 'b/2', 'b/3', 'b/4']) cache.set(k, 1);
    assert.deepEqual(kept(['b/1', 'b/2', 'b/3', 'b/4']), ['b/2', 'b/3', 'b/4']);
    // a long run of evictions: still exactly the last three
    for (let i = 0; i < 1000; i++) cache.set(`c/${i % 10}`, i);
    for (let i = 0; i < 1000; i++) cache.set(`d/${i % 10}`, i);
    assert.deepEqual(kept(['d/6', 'd/7', 'd/8', 'd/9']), ['d/7', 'd/8', 'd/9']);
  });
});

describe('the engine model cache and sealed values', () => {
  /** A store's key generation, moved by hand: each shred moves it. */
  const keys = () => {
    let shreds = 0;
    return { generation: () => shreds, shred: () => void shreds++ };
  };
  const secret = { type: 'put', key: 'a/1', value: 'SECRET', seal: 's1' } as const;

  it('keeps a value written sealed in the clear while no key was destroyed', () => {
    const store = keys();
    const cache = modelCache({ generation: store.generation });
    cache.stage([secret]);
    cache.committed([secret]);
    assert.deepEqual(read(cache, 'a/1'), { value: 'SECRET' });
  });

  it('forgets every value, whole keyspaces included, once a key is destroyed (a shred)', () => {
    const store = keys();
    const cache = modelCache({ generation: store.generation });
    cache.emptied('a/');
    cache.committed([secret, { type: 'put', key: 'a/2', value: 'plain' }]);
    store.shred();
    assert.equal(read(cache, 'a/1'), undefined, 'read from the store, which answers it gone');
    assert.equal(read(cache, 'a/2'), undefined);
    assert.equal(read(cache, 'a/3'), undefined, 'the keyspace is no longer known whole');
  });

  it('does not keep what the store answered before a shred that came during the read', () => {
    const store = keys();
    const cache = modelCache({ generation: store.generation });
    const since = cache.generation();
    store.shred(); // while the store was reading
    cache.set('a/1', 'SECRET', since);
    assert.equal(read(cache, 'a/1'), undefined);
  });

  it('does not keep a sealed value whose write was staged before a shred', () => {
    const store = keys();
    const cache = modelCache({ generation: store.generation });
    cache.stage([secret]);
    store.shred(); // while the page was written
    cache.committed([secret]);
    assert.equal(read(cache, 'a/1'), undefined);
  });

  it('keeps no value written sealed where the store cannot tell a shred (PostgreSQL)', () => {
    const cache = modelCache();
    cache.emptied('a/');
    cache.committed([secret]);
    assert.equal(read(cache, 'a/1'), undefined, 'read from the store, which unseals it');
    assert.equal(read(cache, 'a/2'), undefined, 'nor is its keyspace whole after it');
  });
});
