import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { LayeredMap } from '../../src/commands/intent/layered-map.js';

/** A seeded generator: the same sequence of operations on every run. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const sameAs = (layered: LayeredMap<number, string>, map: Map<number, string>) => {
  assert.deepEqual([...layered.entries()], [...map.entries()]);
  assert.equal(layered.size, map.size);
  assert.deepEqual([...layered.keys()], [...map.keys()]);
  assert.deepEqual([...layered.values()], [...map.values()]);
};

describe('LayeredMap', () => {
  it('reads as a Map with the same history, order included, through merges of its layer', () => {
    const next = random(7);
    let layered = LayeredMap.empty<number, string>();
    const map = new Map<number, string>();
    for (let step = 0; step < 3000; step++) {
      const key = Math.floor(next() * 400);
      if (next() < 0.3) {
        layered = layered.without(key);
        map.delete(key);
      } else {
        layered = layered.with(key, `v${step}`);
        map.set(key, `v${step}`);
      }
      assert.equal(layered.get(key), map.get(key));
      assert.equal(layered.has(key), map.has(key));
      if (step % 97 === 0) sameAs(layered, map);
    }
    sameAs(layered, map);
  });

  it('never changes a map it was derived from', () => {
    let layered = LayeredMap.empty<number, string>();
    const kept: [LayeredMap<number, string>, [number, string][]][] = [];
    for (let i = 0; i < 500; i++) {
      layered = i % 5 === 4 ? layered.without(i - 2) : layered.with(i % 50, `v${i}`);
      kept.push([layered, [...layered.entries()]]);
    }
    // a branch off an old map (a retried command's load) leaves the old map and its heirs alone
    const branch = kept[100]![0].with(999, 'branch');
    assert.equal(branch.get(999), 'branch');
    for (const [map, entries] of kept) assert.deepEqual([...map.entries()], entries);
  });

  it('puts a key deleted from its base and set again last, as a Map does', () => {
    const base = LayeredMap.of<string, number>([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const again = base.without('a').with('a', 4);
    const map = new Map([...base]);
    map.delete('a');
    map.set('a', 4);
    assert.deepEqual([...again], [...map]);
    assert.deepEqual([...again.keys()], ['b', 'c', 'a']);
    assert.deepEqual(
      [...base],
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ],
    );
  });
});
