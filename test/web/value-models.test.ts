import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openMemoryLevel, type ModelOp, type ModelStore } from '../../src/events/index.js';
import { levelModelStore } from '../../src/events/level/level-model-store.js';
import { valueModels } from '../../src/web/value-models.js';

// keys around the bands where UTF-16 order and UTF-8 byte order disagree (astral vs U+E000+)
const KEYS = [
  'a/1',
  'a/10',
  'a/2',
  'a/\u00e9',
  'a/\ue000',
  'a/\uffff',
  'a/\u{1f600}',
  'a/\u{10000}x',
  'a',
  'ab',
  'b/1',
  'b/\u{1f600}/z',
  'c',
];

const reads = async (store: ModelStore) => ({
  get: await Promise.all(KEYS.map((k) => store.get(k))),
  many: await store.getMany(['a/1', 'missing', 'c']),
  all: await store.range({ prefix: '' }),
  a: await store.range({ prefix: 'a/' }),
  aReverse: await store.range({ prefix: 'a/', reverse: true }),
  aFirst3: await store.range({ prefix: 'a/', limit: 3 }),
  aLast2: await store.range({ prefix: 'a/', limit: 2, reverse: true }),
  astral: await store.range({ prefix: 'b/\u{1f600}' }),
  none: await store.range({ prefix: 'zz' }),
});

const steps: ModelOp[][] = [
  KEYS.map((key, i) => ({ type: 'put', key, value: { i, key, list: [i, String(i)] } })),
  [
    { type: 'del', key: 'a/2' },
    { type: 'put', key: 'c', value: 'replaced' },
    { type: 'put', key: 'a/2', value: null },
    { type: 'put', key: 'b/1', value: undefined },
  ],
];

describe('web view: read models held as values in memory', () => {
  it('read as a level store with the same writes does: values, key order, prefixes, limits', async () => {
    const level = levelModelStore(await openMemoryLevel());
    const values = valueModels();
    for (const ops of steps) {
      await level.write(ops);
      await values.store.write(ops);
      assert.deepEqual(await reads(values.store), await reads(level));
      assert.deepEqual(await reads(values.keep().store), await reads(level));
    }
    await level.clear('a/');
    await values.store.clear('a/');
    assert.deepEqual(await reads(values.store), await reads(level));
    assert.deepEqual(await reads(values.keep().store), await reads(level));
  });

  it('a kept state does not move with later writes and refuses its own', async () => {
    const values = valueModels();
    await values.store.write([{ type: 'put', key: 'k', value: { n: 1 } }]);
    const kept = values.keep();
    await values.store.write([
      { type: 'put', key: 'k', value: { n: 2 } },
      { type: 'put', key: 'new', value: 1 },
    ]);
    await values.store.clear('');
    assert.deepEqual(await kept.store.get('k'), { n: 1 });
    assert.deepEqual(await kept.store.range({ prefix: '' }), [['k', { n: 1 }]]);
    await assert.rejects(kept.store.write([{ type: 'del', key: 'k' }]), /read-only/);
    await assert.rejects(kept.store.clear(''), /read-only/);
    // a new fold from the kept state starts with its values, and leaves it as it was
    const again = valueModels(kept.values);
    await again.store.write([{ type: 'put', key: 'k', value: { n: 3 } }]);
    assert.deepEqual(await again.store.get('k'), { n: 3 });
    assert.deepEqual(await kept.store.get('k'), { n: 1 });
  });

  it('a page that changes what it read from a kept state changes only its own copy', async () => {
    const values = valueModels();
    await values.store.write([{ type: 'put', key: 'row', value: { ids: ['a'] } }]);
    const kept = values.keep();
    const read = await kept.store.get<{ ids: string[] }>('row');
    read!.ids.push('changed');
    const [[, ranged]] = (await kept.store.range<{ ids: string[] }>({ prefix: 'row' })) as [
      [string, { ids: string[] }],
    ];
    ranged.ids.push('changed too');
    assert.deepEqual(await kept.store.get('row'), { ids: ['a'] });
    assert.deepEqual(await values.store.get('row'), { ids: ['a'] });
  });
});
