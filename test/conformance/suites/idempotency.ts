import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExpectedVersionConflictError } from '@event-driven-io/emmett';
import { IdempotencyReplayError, type IdempotencyClaim } from '../../../src/events/index.js';
import { allEvents, ev, range1, rejection, stream, withLog, type OpenStore } from '../harness.js';

const claim = (scope: string, value: unknown, fingerprint = 'fp-1'): IdempotencyClaim => ({
  scope,
  fingerprint,
  response: value,
});

const assertReplay = (error: unknown): IdempotencyReplayError => {
  assert.ok(error instanceof IdempotencyReplayError, `not a replay: ${String(error)}`);
  return error;
};

export const idempotencyTests = (open: OpenStore): void => {
  describe('idempotency', () => {
    it('records the response with the events; a reused scope replays it and appends nothing', () =>
      withLog(open, async (log) => {
        const response = { ok: true, id: 'wp_1', nested: { list: [1, 'two', null] } };
        const first = await log.appendToStream(stream('p', 'a'), [ev(1), ev(2)], {
          idempotency: claim('actor-1:key-1', response),
        });
        const record = await log.getIdempotency('actor-1:key-1');
        assert.deepEqual(record, {
          fingerprint: 'fp-1',
          response,
          position: Number(first.lastEventGlobalPosition),
        });
        const error = assertReplay(
          await rejection(
            log.appendToStream(stream('p', 'b'), [ev(3)], {
              idempotency: claim('actor-1:key-1', { other: 1 }, 'fp-2'),
            }),
          ),
        );
        assert.deepEqual(error.record, record);
        assert.equal(await log.head(), 2);
        assert.equal(await log.getIdempotency('actor-1:key-2'), undefined);
      }));

    it('writes no record when the append fails', () =>
      withLog(open, async (log) => {
        const name = stream('p', 'a');
        await log.appendToStream(name, [ev(1)]);
        const error = await rejection(
          log.appendToStream(name, [ev(2)], {
            expectedStreamVersion: 0n,
            idempotency: claim('k', { ok: true }),
          }),
        );
        assert.ok(error instanceof ExpectedVersionConflictError);
        assert.equal(await log.getIdempotency('k'), undefined);
        await log.appendToStream(name, [ev(2)], { idempotency: claim('k', { ok: 2 }) });
        assert.deepEqual((await log.getIdempotency('k'))?.response, { ok: 2 });
      }));

    it('lets exactly one of many concurrent appends with one scope commit', () =>
      withLog(open, async (log) => {
        const results = await Promise.allSettled(
          range1(8).map((i) =>
            log.appendToStream(stream('p', `s${i}`), [ev(i)], {
              idempotency: claim('same', { winner: i }),
            }),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        assert.equal(won.length, 1);
        const record = (await log.getIdempotency('same'))!;
        for (const r of results)
          if (r.status === 'rejected') assert.deepEqual(assertReplay(r.reason).record, record);
        const events = await allEvents(log);
        assert.equal(events.length, 1);
        assert.deepEqual(record.response, { winner: events[0]!.data.n });
      }));
  });

  describe('appendId', () => {
    it('a retried append returns the first result and appends nothing', () =>
      withLog(open, async (log) => {
        const name = stream('p', 'a');
        const first = await log.appendToStream(name, [ev(1), ev(2)], {
          appendId: 'append-1',
          expectedStreamVersion: 0n,
        });
        await log.appendToStream(stream('p', 'b'), [ev(3)]);
        const again = await log.appendToStream(name, [ev(1), ev(2)], {
          appendId: 'append-1',
          expectedStreamVersion: 0n,
        });
        assert.deepEqual(again, first);
        assert.equal(typeof again.nextExpectedStreamVersion, 'bigint');
        assert.equal(typeof again.lastEventGlobalPosition, 'bigint');
        assert.equal(await log.head(), 3);
        const other = await log.appendToStream(name, [ev(4)], { appendId: 'append-2' });
        assert.equal(other.nextExpectedStreamVersion, 3n);
      }));

    it('concurrent appends with one appendId append once and answer alike', () =>
      withLog(open, async (log) => {
        const results = await Promise.all(
          range1(5).map(() => log.appendToStream(stream('p', 'a'), [ev(1)], { appendId: 'dup' })),
        );
        for (const r of results) assert.deepEqual(r, results[0]);
        assert.equal(await log.head(), 1);
      }));
  });
};
