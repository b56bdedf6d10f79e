import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { MODEL_CACHE_ENTRIES, modelCache } from '../../src/projections/model-batch.js';

describe('the engine model cache', () => {
  it('answers a key of an emptied keyspace as absent without the store', () => {
    const cache = modelCache();
    assert.equal(cache.get('a/1'), undefined, 'unknown: ask the store');
    cache.emptied('a/');
    assert.deepEqual(cache.get('a/1'), { value: undefined }, 'known absent');
    assert.equal(cache.get('b/1'), undefined, 'another keyspace is still unknown');
    cache.committed([{ type: 'put', key: 'a/1', value: 7 }]);
    assert.deepEqual(cache.get('a/1'), { value: 7 });
  });

  it('forgets what was under the emptied prefix', () => {
    const cache = modelCache();
    cache.set('a/1', 1);
    cache.set('b/1', 2);
    cache.emptied('a/');
    assert.deepEqual(cache.get('a/1'), { value: undefined });
    assert.deepEqual(cache.get('b/1'), { value: 2 }, 'other keyspaces keep their entries');
  });

  it('stops answering absent once an entry of the keyspace leaves the cache', () => {
    const cache = modelCache(2);
    cache.emptied('a/');
    cache.committed([
      { type: 'put', key: 'a/1', value: 1 },
      { type: 'put', key: 'a/2', value: 2 },
      { type: 'put', key: 'a/3', value: 3 },
    ]);
    // a/1 was evicted: the store holds it, so the cache must not say it is absent
    assert.equal(cache.get('a/1'), undefined);
    assert.equal(cache.get('a/9'), undefined);
    assert.deepEqual(cache.get('a/3'), { value: 3 });
  });

  it('does not keep a sealed value, nor claim its keyspace whole after it', () => {
    const cache = modelCache();
    cache.emptied('a/');
    cache.committed([{ type: 'put', key: 'a/1', value: 'secret', seal: 'subject' }]);
    assert.equal(cache.get('a/1'), undefined, 'read from the store, which unseals it');
    assert.equal(cache.get('a/2'), undefined);
  });

  it('clear forgets everything, whole keyspaces included', () => {
    const cache = modelCache();
    cache.emptied('a/');
    cache.clear();
    assert.equal(cache.get('a/1'), undefined);
  });

  it('keeps at most 10,000 values by default, the ones written longest ago going first', () => {
    // a replay's memory stands on this bound (bench/RESULTS.md, session 15)
    assert.equal(MODEL_CACHE_ENTRIES, 10_000);
    const cache = modelCache();
    const n = 12_000;
    for (let i = 0; i < n; i++) cache.committed([{ type: 'put', key: `a/${i}`, value: i }]);
    assert.equal(cache.get('a/0'), undefined, 'evicted: ask the store');
    assert.equal(cache.get(`a/${n - MODEL_CACHE_ENTRIES - 1}`), undefined);
    assert.deepEqual(cache.get(`a/${n - MODEL_CACHE_ENTRIES}`), { value: n - MODEL_CACHE_ENTRIES });
    assert.deepEqual(cache.get(`a/${n - 1}`), { value: n - 1 });
  });

  it('evicts in the order keys were last written, across many evictions and a clear', () => {
    const cache = modelCache(3);
    const kept = (keys: string[]) => keys.filter((k) => cache.get(k) !== undefined);
    for (const k of ['a/1', 'a/2', 'a/3']) cache.set(k, k);
    cache.set('a/1', 'again'); // now the newest
    cache.set('a/4', 4); // evicts a/2
    assert.deepEqual(kept(['a/1', 'a/2', 'a/3', 'a/4']), ['a/1', 'a/3', 'a/4']);
    cache.set('a/5', 5); // evicts a/3
    cache.set('a/3', 3); // back in, evicts a/1
    assert.deepEqual(kept(['a/1', 'a/2', 'a/3', 'a/4', 'a/5']), ['a/3', 'a/4', 'a/5']);
    cache.clear();
    for (const k of ['b/1', 'b/2', 'b/3', 'b/4']) cache.set(k, k);
    assert.deepEqual(kept(['b/1', 'b/2', 'b/3', 'b/4']), ['b/2', 'b/3', 'b/4']);
    // a long run of evictions: still exactly the last three
    for (let i = 0; i < 1000; i++) cache.set(`c/${i}`, i);
    assert.deepEqual(kept(['c/996', 'c/997', 'c/998', 'c/999']), ['c/997', 'c/998', 'c/999']);
  });
});
