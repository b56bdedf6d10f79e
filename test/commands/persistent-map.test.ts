import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import fc from 'fast-check';
import { PersistentMap } from '../../src/commands/persistent-map.js';

type Op = { from: number; key: number; value: number | undefined };

test('every version reads as the copy-per-change map it stands for, in any order of reads', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          from: fc.nat(),
          key: fc.integer({ min: 0, max: 6 }),
          value: fc.option(fc.integer(), { nil: undefined }),
        }),
        { maxLength: 40 },
      ),
      fc.array(fc.nat(), { maxLength: 60 }),
      (ops: Op[], reads: number[]) => {
        // Given versions made from arbitrary earlier versions (a tree, not a line)
        const versions = [PersistentMap.empty<number, number>()];
        const copies = [new Map<number, number>()];
        for (const op of ops) {
          const i = op.from % versions.length;
          versions.push(versions[i]!.with(op.key, op.value));
          const copy = new Map(copies[i]!);
          if (op.value === undefined) copy.delete(op.key);
          else copy.set(op.key, op.value);
          copies.push(copy);
        }
        // When they are read in any order, Then each reads as its copy (its entries: an older
        // version whose later deletion was undone lists that key last)
        const sorted = (m: Iterable<[number, number]>) => [...m].sort((a, b) => a[0] - b[0]);
        for (const r of [...reads, ...versions.keys()]) {
          const i = r % versions.length;
          const v = versions[i]!;
          assert.deepEqual(sorted(v), sorted(copies[i]!));
          assert.equal(v.size, copies[i]!.size);
          for (let k = 0; k <= 6; k++) {
            assert.equal(v.get(k), copies[i]!.get(k));
            assert.equal(v.has(k), copies[i]!.has(k));
          }
        }
      },
    ),
  );
});

test('a lineage read newest-first keeps insertion order, as the fold reads it', () => {
  let m = PersistentMap.empty<string, number>();
  for (const k of ['c', 'a', 'b']) m = m.with(k, 1);
  m = m.with('a', 2).with('c', undefined);
  assert.deepEqual(
    [...m],
    [
      ['a', 2],
      ['b', 1],
    ],
  );
});

test('an iterator is a snapshot: reading an older version while iterating changes nothing', () => {
  const a = PersistentMap.empty<string, number>().with('x', 1).with('y', 2);
  const b = a.with('z', 3);
  const seen: string[] = [];
  for (const [k] of b) {
    seen.push(k);
    assert.equal(a.has('z'), false);
  }
  assert.deepEqual(seen, ['x', 'y', 'z']);
});

test('a long lineage folds in linear time (the map stream of 10,000 stories)', () => {
  let m = PersistentMap.empty<number, number>();
  for (let i = 0; i < 100_000; i++) m = m.with(i, i);
  assert.equal(m.size, 100_000);
  assert.equal(m.get(99_999), 99_999);
});
