import assert from 'node:assert/strict';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import { describe, it } from 'node:test';
import { GENESIS_HASH, verifyChain } from '../../../src/events/index.js';
import {
  allEvents,
  allRaw,
  ev,
  range1,
  sealed,
  stream,
  withLog,
  type OpenStore,
} from '../harness.js';

/** What a restarted process must find: state comes from storage, not from the old caches. */
export const restartTests = (open: OpenStore): void => {
  describe('reopening', () => {
    it('keeps every acknowledged event and continues positions, cursors, versions and records', (t) =>
      withLog(open, async (first, store) => {
        if (!store.reopen) return t.skip('this store cannot be reopened');
        const name = stream('p', 'a');
        await first.appendToStream(name, [ev(1), sealed('s1', 'kept')], {
          idempotency: { scope: 'k1', fingerprint: 'f', response: { r: 1 } },
        });
        const withId = await first.appendToStream(stream('q', 'b'), [ev(2)], { appendId: 'ap-1' });
        const before = await allEvents(first);

        const log = await store.reopen();
        assert.deepEqual(await allEvents(log), before);
        assert.equal(await log.head(), 3);
        assert.deepEqual((await log.getIdempotency('k1'))?.response, { r: 1 });
        assert.deepEqual(
          await log.appendToStream(stream('q', 'b'), [ev(2)], { appendId: 'ap-1' }),
          withId,
        );
        const next = await log.appendToStream(name, [ev(3)], { expectedStreamVersion: 2n });
        assert.equal(next.nextExpectedStreamVersion, 3n);
        assert.equal(next.lastEventGlobalPosition, 4n);
        assert.equal(next.lastCursor, 3);
        await log.appendToStream(name, [sealed('s1', 'again')]);
        const events = await allEvents(log);
        assert.deepEqual(
          events.filter((e) => e.type === 'thing.said').map((e) => e.data.text),
          ['kept', 'again'],
        );
        const raw = (await allRaw(log)).filter((r) => r.project_id === 'p');
        assert.equal(verifyChain(raw, GENESIS_HASH), undefined);
      }));

    it("continues every stream and a project's chain from what is stored, across its streams", (t) =>
      withLog(open, async (first, store) => {
        if (!store.reopen) return t.skip('this store cannot be reopened');
        await first.appendToStream(stream('p', 'a'), [ev(1), ev(2)]);
        await first.appendToStream(stream('p', 'b'), [ev(3)]);
        await first.appendToStream(stream('p', 'a'), [ev(4)]);

        const log = await store.reopen();
        assert.equal((await log.readStream(stream('p', 'a'))).currentStreamVersion, 3n);
        const b = await log.appendToStream(stream('p', 'b'), [ev(5)], {
          expectedStreamVersion: 1n,
        });
        assert.equal(b.nextExpectedStreamVersion, 2n);
        assert.equal(b.lastCursor, 5);
        const c = await log.appendToStream(stream('p', 'c'), [ev(6)], {
          expectedStreamVersion: STREAM_DOES_NOT_EXIST,
        });
        assert.equal(c.lastCursor, 6);
        const raw = (await allRaw(log)).filter((r) => r.project_id === 'p');
        assert.equal(verifyChain(raw, GENESIS_HASH), undefined);
      }));

    it('a failed append does not cost its group the content key another append created', (t) =>
      withLog(open, async (log, store) => {
        if (!store.reopen) return t.skip('this store cannot be reopened');
        await log.appendToStream(stream('p', 'taken'), [ev(0)]);
        const results = await Promise.allSettled(
          range1(4).flatMap((i) => [
            log.appendToStream(stream('p', 'taken'), [sealed(`s${i}`, 'lost?')], {
              expectedStreamVersion: 0n,
            }),
            log.appendToStream(stream('p', `free${i}`), [sealed(`s${i}`, `kept ${i}`)]),
          ]),
        );
        assert.equal(results.filter((r) => r.status === 'rejected').length, 4);
        const reopened = await store.reopen();
        const said = (await allEvents(reopened)).filter((e) => e.type === 'thing.said');
        assert.deepEqual(
          said.map((e) => [e.shredded, e.data.text]).sort(),
          range1(4).map((i) => [false, `kept ${i}`]),
        );
      }));

    it('a shred racing appends of its subject reads the same before and after reopening', (t) =>
      withLog(open, async (log, store) => {
        if (!store.reopen) return t.skip('this store cannot be reopened');
        await log.appendToStream(stream('p', 'a'), [sealed('s', 'first')]);
        // appends keep arriving, one per turn of the event loop, for as long as the shred runs
        let shredded = false;
        const shredding = log.shred('s').then(() => (shredded = true));
        const racing = [];
        for (let i = 1; i <= 500 && !shredded; i++) {
          racing.push(log.appendToStream(stream('p', `r${i}`), [sealed('s', `racing ${i}`)]));
          await new Promise((resolve) => setImmediate(resolve));
        }
        await Promise.all([shredding, ...racing]);
        await Promise.all(
          range1(10).map((i) =>
            log.appendToStream(stream('p', `z${i}`), [sealed('s', `after ${i}`)]),
          ),
        );
        const view = (events: Awaited<ReturnType<typeof allEvents>>) =>
          events.map((e) => [e.global_position, e.shredded, e.data.text ?? null]);
        const before = view(await allEvents(log));
        assert.deepEqual(before[0], [1, true, null]);
        for (const [, shredded, text] of before.slice(-10)) {
          assert.equal(shredded, false);
          assert.match(String(text), /^after /);
        }
        const reopened = await store.reopen();
        assert.deepEqual(view(await allEvents(reopened)), before);
      }));
  });
};
