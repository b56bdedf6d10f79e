import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExpectedVersionConflictError, STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import {
  GENESIS_HASH,
  IdempotencyReplayError,
  verifyChain,
  type EventLog,
} from '../../../src/events/index.js';
import {
  allEvents,
  allRaw,
  ev,
  projectEvents,
  range1,
  rejection,
  sealed,
  strictCatalog,
  stream,
  withLog,
  type OpenStore,
} from '../harness.js';

const assertConflict = (error: unknown): void => {
  assert.ok(error instanceof ExpectedVersionConflictError, `not a conflict: ${String(error)}`);
  assert.equal(error.errorCode, 412);
};

const versionOf = async (log: EventLog, name: string) =>
  (await log.readStream(name)).currentStreamVersion;

export const multiStreamTests = (open: OpenStore): void => {
  describe('appendToStreams (atomic multi-stream append)', () => {
    it('appends to streams of several projects at once; each project chain advances', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p', 'a'), [ev(0)]);
        const result = await log.appendToStreams([
          { streamName: stream('p', 'a'), events: [ev(1), ev(2)], expectedStreamVersion: 1n },
          { streamName: stream('q', 'b'), events: [ev(3)], expectedStreamVersion: 0n },
          { streamName: stream('p', 'c'), events: [ev(4)] },
          { streamName: stream('q', 'd'), events: [], expectedStreamVersion: 0n },
        ]);
        assert.equal(result.lastEventGlobalPosition, 5n);
        assert.deepEqual(
          result.streams.map((s) => [s.streamName, s.nextExpectedStreamVersion]),
          [
            [stream('p', 'a'), 3n],
            [stream('q', 'b'), 1n],
            [stream('p', 'c'), 1n],
            [stream('q', 'd'), 0n],
          ],
        );
        assert.deepEqual(
          result.streams.map((s) => s.createdNewStream),
          [false, true, true, false],
        );
        const p = await projectEvents(log, 'p');
        const q = await projectEvents(log, 'q');
        assert.deepEqual(
          p.map((e) => [e.cursor, e.data.n]),
          [
            [1, 0],
            [2, 1],
            [3, 2],
            [4, 4],
          ],
        );
        assert.deepEqual(
          q.map((e) => [e.cursor, e.data.n]),
          [[1, 3]],
        );
        assert.equal(result.lastCursor, 4);
        for (const project of ['p', 'q']) {
          const raw = (await allRaw(log)).filter((r) => r.project_id === project);
          assert.equal(verifyChain(raw, GENESIS_HASH), undefined, project);
        }
        // a single append after it continues every head
        const next = await log.appendToStream(stream('q', 'b'), [ev(5)], {
          expectedStreamVersion: 1n,
        });
        assert.equal(next.lastCursor, 2);
        assert.equal(next.lastEventGlobalPosition, 6n);
      }));

    it('one stale stream refuses the whole append with 412: nothing is written', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p', 'a'), [ev(1)]);
        await log.appendToStream(stream('p', 'stale'), [ev(2)]);
        const appends = (stale: bigint) => [
          { streamName: stream('p', 'a'), events: [ev(3)], expectedStreamVersion: 1n },
          { streamName: stream('q', 'new'), events: [ev(4)], expectedStreamVersion: 0n },
          { streamName: stream('p', 'stale'), events: [], expectedStreamVersion: stale },
        ];
        assertConflict(await rejection(log.appendToStreams(appends(0n))));
        assertConflict(await rejection(log.appendToStreams(appends(2n))));
        assert.equal(await log.head(), 2);
        assert.equal(await versionOf(log, stream('p', 'a')), 1n);
        assert.equal(await log.streamExists(stream('q', 'new')), false);
        const ok = await log.appendToStreams(appends(1n));
        assert.equal(ok.lastEventGlobalPosition, 4n);
        assert.equal((await projectEvents(log, 'p')).length, 3);
      }));

    it('an invalid event in one stream refuses every stream', () =>
      withLog(
        open,
        async (log) => {
          const error = await rejection(
            log.appendToStreams([
              { streamName: stream('p', 'a'), events: [ev(1)] },
              { streamName: stream('p', 'b'), events: [{ type: 'thing.happened', data: {} }] },
            ]),
          );
          assert.ok(error instanceof Error);
          assert.equal(await log.head(), 0);
          await log.appendToStream(stream('p', 'a'), [ev(1)]);
          assert.equal((await projectEvents(log, 'p'))[0]!.cursor, 1);
        },
        strictCatalog,
      ));

    it('names each stream once', () =>
      withLog(open, async (log) => {
        const name = stream('p', 'a');
        const error = await rejection(
          log.appendToStreams([
            { streamName: name, events: [ev(1)] },
            { streamName: name, events: [ev(2)] },
          ]),
        );
        assert.ok(error instanceof TypeError);
        assert.equal(await log.head(), 0);
      }));

    it('concurrent multi-stream appends over shared streams: each commits whole or not at all', () =>
      withLog(open, async (log) => {
        const names = range1(4).map((i) => stream(i % 2 ? 'p' : 'q', `s${i}`));
        const results = await Promise.allSettled(
          range1(8).map((i) =>
            log.appendToStreams(
              [names[i % 4]!, names[(i + 1) % 4]!].map((streamName) => ({
                streamName,
                events: [ev(i)],
                expectedStreamVersion: STREAM_DOES_NOT_EXIST,
              })),
            ),
          ),
        );
        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i + 1] : []));
        for (const r of results) if (r.status === 'rejected') assertConflict(r.reason);
        const events = await allEvents(log);
        assert.equal(events.length, won.length * 2);
        for (const i of won)
          assert.deepEqual(
            events.filter((e) => e.data.n === i).map((e) => e.stream_name),
            [names[i % 4]!, names[(i + 1) % 4]!],
          );
      }));

    it('an append of no events records its idempotency claim alone', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p', 'a'), [ev(1)]);
        const claim = { scope: 'k', fingerprint: 'fp', response: { none: true } };
        const result = await log.appendToStreams(
          [{ streamName: stream('p', 'a'), events: [], expectedStreamVersion: 1n }],
          { idempotency: claim },
        );
        assert.equal(result.lastEventGlobalPosition, 1n);
        assert.equal(await log.head(), 1);
        assert.deepEqual(await log.getIdempotency('k'), {
          fingerprint: 'fp',
          response: { none: true },
          position: 1,
        });
        const error = await rejection(log.appendToStreams([], { idempotency: claim }));
        assert.ok(error instanceof IdempotencyReplayError);
        assert.deepEqual(error.record.response, { none: true });
      }));

    it('a retried appendId answers the first result and appends nothing', () =>
      withLog(open, async (log) => {
        const appends = [
          { streamName: stream('p', 'a'), events: [ev(1)], expectedStreamVersion: 0n },
          { streamName: stream('q', 'b'), events: [ev(2)], expectedStreamVersion: 0n },
        ];
        const first = await log.appendToStreams(appends, { appendId: 'm-1' });
        const again = await log.appendToStreams(appends, { appendId: 'm-1' });
        assert.deepEqual(again, first);
        assert.equal(await log.head(), 2);
      }));

    it('an idempotency response of an append that sealed content is sealed: shred removes it', () =>
      withLog(open, async (log) => {
        const claim = { scope: 'k', fingerprint: 'fp', response: { said: 'SECRET-reply' } };
        await log.appendToStreams(
          [
            { streamName: stream('p', 'a'), events: [sealed('s1', 'SECRET-reply')] },
            { streamName: stream('q', 'b'), events: [sealed('s2', 'other'), ev(1)] },
          ],
          { idempotency: claim },
        );
        assert.deepEqual((await log.getIdempotency('k'))?.response, { said: 'SECRET-reply' });
        await log.shred('s2');
        const gone = await log.getIdempotency('k');
        assert.deepEqual(gone, { fingerprint: 'fp', response: null, position: 3, shredded: true });
        const error = await rejection(
          log.appendToStream(stream('p', 'a'), [ev(2)], { idempotency: claim }),
        );
        assert.ok(error instanceof IdempotencyReplayError);
        assert.equal(error.record.shredded, true);
        assert.equal(error.record.response, null);
      }));
  });
};
