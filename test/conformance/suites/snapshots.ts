import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declareSnapshot, type EventLog } from '../../../src/events/index.js';
import { ev, sealed, stream, withLog, type OpenStore } from '../harness.js';

type Tally = { count: bigint; seen: Set<number>; said: Map<number, string> };
type Folded = { type: string; data: { n?: number; text?: string } };

let evolved = 0;
const initialTally = (): Tally => ({ count: 0n, seen: new Set(), said: new Map() });
/** Counts its calls: a load from a snapshot folds only the tail. */
const evolveTally = (state: Tally, event: Folded): Tally => {
  evolved++;
  const count = state.count + 1n;
  if (event.type === 'thing.said')
    return {
      ...state,
      count,
      said: new Map(state.said).set(Number(count), event.data.text ?? '-'),
    };
  return { ...state, count, seen: new Set(state.seen).add(event.data.n ?? -1) };
};
const tally = { name: 'test.tally', version: 1, evolve: evolveTally, initialState: initialTally };
declareSnapshot(tally);

const load = (log: EventLog, name: string) =>
  log.aggregateStream(name, { evolve: evolveTally, initialState: initialTally });

/** Appends `n` events in a few appends, then loads (a snapshot is due at 100 events). */
const grow = async (log: EventLog, name: string, n: number, from = 0) => {
  for (let i = from; i < from + n; i += 50)
    await log.appendToStream(
      name,
      Array.from({ length: Math.min(50, from + n - i) }, (_, k) => ev(i + k)),
    );
  const loaded = await load(log, name);
  await log.snapshots?.settled();
  return loaded.state;
};

/** Persisted aggregate snapshots: a cache every store keeps, never a source of truth. */
export const snapshotTests = (open: OpenStore): void => {
  describe('aggregate snapshots', () => {
    it('a restarted log loads a declared fold from its snapshot and folds only the tail', (t) =>
      withLog(open, async (first, store) => {
        if (!store.reopen || !first.snapshots || store.foldsWithoutSnapshots)
          return t.skip('no snapshot-backed folds or no reopen here');
        const name = stream('p', 'long');
        const before = await grow(first, name, 230);
        assert.equal(await first.snapshots.count(), 1);
        assert.equal((await first.snapshots.get('test.tally', name))?.at, 230);
        const listed = (await first.snapshots.list()).map((s) => [s.name, s.stream, s.at]);
        assert.deepEqual(listed, [['test.tally', name, 230]]);

        const log = await store.reopen();
        await log.appendToStream(name, [ev(999)]);
        evolved = 0;
        const { state, currentStreamVersion } = await load(log, name);
        assert.equal(evolved, 1, 'only the event after the snapshot is folded');
        assert.equal(currentStreamVersion, 231n);
        assert.equal(state.count, before.count + 1n);
        assert.deepEqual(state.seen, new Set([...before.seen, 999]));
      }));

    it('ignores a snapshot made by another evolve version and folds from the first event', (t) =>
      withLog(open, async (first, store) => {
        if (!store.reopen || !first.snapshots || store.foldsWithoutSnapshots)
          return t.skip('no snapshot-backed folds or no reopen here');
        const name = stream('p', 'versioned');
        const before = await grow(first, name, 120);
        const log = await store.reopen();
        declareSnapshot({ ...tally, version: 2 });
        try {
          evolved = 0;
          assert.deepEqual((await load(log, name)).state, before);
          assert.equal(evolved, 120);
          await log.snapshots!.settled();
          assert.equal((await log.snapshots!.get('test.tally', name))?.version, 2);
        } finally {
          declareSnapshot(tally);
        }
      }));

    it('deleting every snapshot changes no answer', (t) =>
      withLog(open, async (first, store) => {
        if (!store.reopen || !first.snapshots) return t.skip('no snapshots or no reopen here');
        const names = [stream('p', 'a'), stream('p', 'b')];
        const before = [await grow(first, names[0]!, 150), await grow(first, names[1]!, 40)];
        await first.snapshots.clear();
        assert.equal(await first.snapshots.count(), 0);
        const log = await store.reopen();
        evolved = 0;
        assert.deepEqual(
          await Promise.all(names.map(async (n) => (await load(log, n)).state)),
          before,
        );
        assert.equal(evolved, 190);
      }));

    it('a fold that saw sealed content is kept encrypted, and no snapshot outlives a shred', (t) =>
      withLog(open, async (first, store) => {
        if (!store.reopen || !first.snapshots || store.foldsWithoutSnapshots)
          return t.skip('no snapshot-backed folds or no reopen here');
        const name = stream('p', 'sealed');
        const secret = 'the secret plan';
        await first.appendToStream(name, [
          sealed('subject-1', secret),
          sealed('subject-2', 'other'),
        ]);
        const plain = stream('p', 'plain');
        await grow(first, plain, 100);
        await grow(first, name, 100);
        const kept = await first.snapshots.get('test.tally', name);
        assert.equal(kept?.sealed, true);
        assert.equal(Buffer.from(kept.body).includes(secret), false, 'no clear text in a snapshot');
        assert.equal((await first.snapshots.get('test.tally', plain))?.sealed, false);

        await first.shred('subject-1');
        assert.equal(await first.snapshots.count(), 0);
        const log = await store.reopen();
        evolved = 0;
        const { state } = await load(log, name);
        assert.equal(evolved, 102, 'folded again from the first event');
        assert.equal([...state.said.values()].includes(secret), false);
        assert.equal(state.said.get(2), 'other');
      }));

    it('a state it cannot store is folded every time, and the load never fails', (t) =>
      withLog(open, async (log) => {
        if (!log.snapshots) return t.skip('no snapshots here');
        const evolveOdd = (s: { f?: () => void; n: number }) => ({
          f: () => undefined,
          n: s.n + 1,
        });
        declareSnapshot({
          name: 'test.odd',
          version: 1,
          evolve: evolveOdd,
          initialState: () => ({ n: 0 }),
        });
        const name = stream('p', 'odd');
        await log.appendToStream(
          name,
          Array.from({ length: 120 }, (_, i) => ev(i)),
        );
        const folded = await log.aggregateStream(name, {
          evolve: evolveOdd,
          initialState: () => ({ n: 0 }),
        });
        await log.snapshots.settled();
        assert.equal(folded.state.n, 120);
        assert.equal(await log.snapshots.get('test.odd', name), undefined);
      }));
  });
};
