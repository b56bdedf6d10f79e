import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { modelCache } from '../../src/projections/model-batch.js';

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
});
