import assert from 'node:assert/strict';
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
          idempotency: { scope: 'k1', fingerprint: 'f', response: { value: { r: 1 } } },
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
  });
};
