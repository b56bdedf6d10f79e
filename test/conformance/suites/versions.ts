import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CommandHandler,
  ExpectedVersionConflictError,
  isExpectedVersionConflictError,
  NO_CONCURRENCY_CHECK,
  STREAM_DOES_NOT_EXIST,
  STREAM_EXISTS,
  type Event,
  type ExpectedStreamVersion,
} from '@event-driven-io/emmett';
import type { EventLog } from '../../../src/events/index.js';
import { allEvents, ev, range1, rejection, stream, withLog, type OpenStore } from '../harness.js';

const assertConflict = (error: unknown): void => {
  assert.ok(
    error instanceof ExpectedVersionConflictError,
    `not a version conflict: ${String(error)}`,
  );
  assert.equal((error as ExpectedVersionConflictError).errorCode, 412);
};

const appendWith = (log: EventLog, name: string, expected: ExpectedStreamVersion<bigint>) =>
  log.appendToStream(name, [ev(1)], { expectedStreamVersion: expected });

export const versionTests = (open: OpenStore): void => {
  describe('expected versions', () => {
    it('STREAM_DOES_NOT_EXIST creates a stream once, then conflicts with 412', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        const first = await appendWith(log, name, STREAM_DOES_NOT_EXIST);
        assert.equal(first.nextExpectedStreamVersion, 1n);
        assert.equal(first.createdNewStream, true);
        assertConflict(await rejection(appendWith(log, name, STREAM_DOES_NOT_EXIST)));
        assert.equal((await allEvents(log)).length, 1);
      }));

    it('STREAM_EXISTS conflicts on a missing stream and passes on an existing one', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        assertConflict(await rejection(appendWith(log, name, STREAM_EXISTS)));
        assert.equal(await log.head(), 0);
        await appendWith(log, name, NO_CONCURRENCY_CHECK);
        const second = await appendWith(log, name, STREAM_EXISTS);
        assert.equal(second.nextExpectedStreamVersion, 2n);
        assert.equal(second.createdNewStream, false);
      }));

    it('NO_CONCURRENCY_CHECK and no option append whatever the version', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        await appendWith(log, name, NO_CONCURRENCY_CHECK);
        await log.appendToStream(name, [ev(2), ev(3)]);
        const last = await appendWith(log, name, NO_CONCURRENCY_CHECK);
        assert.equal(last.nextExpectedStreamVersion, 4n);
      }));

    it('an exact version appends only when it is the current one', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        assertConflict(await rejection(appendWith(log, name, 1n)));
        await appendWith(log, name, 0n);
        await log.appendToStream(name, [ev(2), ev(3)], { expectedStreamVersion: 1n });
        for (const wrong of [0n, 1n, 2n, 4n, 99n])
          assertConflict(await rejection(appendWith(log, name, wrong)));
        const ok = await appendWith(log, name, 3n);
        assert.equal(ok.nextExpectedStreamVersion, 4n);
        assert.equal((await log.readStream(name)).events.length, 4);
      }));

    it('readStream checks its expected version too', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        await appendWith(log, name, STREAM_DOES_NOT_EXIST);
        assertConflict(await rejection(log.readStream(name, { expectedStreamVersion: 2n })));
        assertConflict(
          await rejection(log.readStream(name, { expectedStreamVersion: STREAM_DOES_NOT_EXIST })),
        );
        const read = await log.readStream(name, { expectedStreamVersion: 1n });
        assert.equal(read.events.length, 1);
      }));

    it('a conflicting append in a concurrent group fails alone', () =>
      withLog(open, async (log) => {
        const names = range1(6).map((i) => stream('p1', `s${i}`));
        const results = await Promise.allSettled(
          names.flatMap((name) => [appendWith(log, name, 0n), appendWith(log, name, 0n)]),
        );
        const failures = results.filter((r) => r.status === 'rejected');
        assert.equal(failures.length, names.length);
        for (const f of failures) assertConflict((f as PromiseRejectedResult).reason);
        for (const name of names) assert.equal((await log.readStream(name)).events.length, 1);
      }));
  });

  describe('reading streams', () => {
    it('reports currentStreamVersion as the last version read, `from` inclusive and 1-based', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        await log.appendToStream(
          name,
          range1(5).map((n) => ev(n)),
        );
        const versions = async (options: object) => {
          const read = await log.readStream(name, options);
          const seen = read.events.map((e) => Number(e.metadata.streamPosition));
          assert.deepEqual(
            read.events.map((e) => e.data.n),
            seen,
          );
          return { seen, current: read.currentStreamVersion, exists: read.streamExists };
        };
        assert.deepEqual(await versions({}), { seen: [1, 2, 3, 4, 5], current: 5n, exists: true });
        assert.deepEqual(await versions({ from: 2n, to: 3n }), {
          seen: [2, 3],
          current: 3n,
          exists: true,
        });
        assert.deepEqual(await versions({ from: 4n }), { seen: [4, 5], current: 5n, exists: true });
        assert.deepEqual(await versions({ maxCount: 2n }), {
          seen: [1, 2],
          current: 2n,
          exists: true,
        });
        assert.deepEqual(await versions({ from: 3n, maxCount: 2n }), {
          seen: [3, 4],
          current: 4n,
          exists: true,
        });
        assert.deepEqual(await versions({ to: 1n }), { seen: [1], current: 1n, exists: true });
        assert.deepEqual(await versions({ from: 4n, to: 10n }), {
          seen: [4, 5],
          current: 5n,
          exists: true,
        });
      }));

    it('a missing stream reads empty at version 0', () =>
      withLog(open, async (log) => {
        const read = await log.readStream(stream('p1', 'none'));
        assert.deepEqual(read.events, []);
        assert.equal(read.currentStreamVersion, 0n);
        assert.equal(read.streamExists, false);
        assert.equal(await log.streamExists(stream('p1', 'none')), false);
        await log.appendToStream(stream('p1', 'some'), [ev(1)]);
        assert.equal(await log.streamExists(stream('p1', 'some')), true);
        assert.equal(await log.streamExists(stream('p1', 'none')), false);
      }));

    it('read events carry Emmett metadata and the envelope', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p0', 'x'), [ev(0)]);
        const name = stream('p1', 'a');
        const appended = await log.appendToStream(name, [ev(1), ev(2)]);
        const { events } = await log.readStream(name);
        const last = events[1]!.metadata;
        assert.equal(last.streamName, name);
        assert.equal(last.streamPosition, 2n);
        assert.equal(last.globalPosition, appended.lastEventGlobalPosition);
        assert.equal(last.globalPosition, 3n);
        assert.equal(last.projectId, 'p1');
        assert.equal(last.cursor, 2);
        assert.equal(appended.lastCursor, 2);
        assert.equal(events[0]!.kind, 'Event');
        assert.match(last.eventId, /^evt_/);
      }));

    it('aggregateStream folds the stream and reports its version', () =>
      withLog(open, async (log) => {
        const name = stream('p1', 'a');
        const sum = () =>
          log.aggregateStream(name, {
            initialState: () => 0,
            evolve: (state: number, event: Event) => state + Number(event.data.n),
          });
        assert.deepEqual(await sum(), { currentStreamVersion: 0n, state: 0, streamExists: false });
        await log.appendToStream(name, [ev(1), ev(2), ev(3)]);
        assert.deepEqual(await sum(), { currentStreamVersion: 3n, state: 6, streamExists: true });
      }));
  });

  describe("Emmett's CommandHandler", () => {
    it('retries on version conflict: N concurrent handlers on one stream all succeed', () =>
      withLog(open, async (log) => {
        const N = 8;
        const handle = CommandHandler<number, Event>({
          evolve: (state, event) => Math.max(state, Number(event.data.n)),
          initialState: () => 0,
        });
        const retry = {
          onVersionConflict: {
            retries: N * 2,
            minTimeout: 1,
            maxTimeout: 20,
            factor: 1.2,
            shouldRetryError: isExpectedVersionConflictError,
          },
        };
        const name = stream('p1', 'counter');
        const results = await Promise.all(
          range1(N).map(() => handle(log, name, (state) => ev(state + 1), { retry })),
        );
        assert.deepEqual(
          results.map((r) => Number(r.nextExpectedStreamVersion)).sort((a, b) => a - b),
          range1(N),
        );
        const { events } = await log.readStream(name);
        assert.deepEqual(
          events.map((e) => [Number(e.metadata.streamPosition), e.data.n]),
          range1(N).map((n) => [n, n]),
        );
      }));
  });
};
