import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstValueFrom, takeWhile, toArray } from 'rxjs';
import { CatalogError, type LogEvent } from '../../../src/events/index.js';
import {
  allEvents,
  ev,
  range1,
  rejection,
  sealed,
  strictCatalog,
  stream,
  withLog,
  type OpenStore,
} from '../harness.js';

const assertInvalid = (error: unknown): void => {
  assert.ok(error instanceof CatalogError, `not a catalog error: ${String(error)}`);
  assert.equal(error.code, 'invalid_event');
};

export const liveTests = (open: OpenStore): void => {
  describe('live', () => {
    it('emits every committed event once, in global order, and never a rejected one', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p', 'before'), [ev(0)]);
        const received = firstValueFrom(
          log.live().pipe(
            takeWhile((e: LogEvent) => e.data.sentinel !== true, true),
            toArray(),
          ),
        );
        const results = await Promise.allSettled(
          range1(6).flatMap((i) => [
            log.appendToStream(stream(i % 2 ? 'p' : 'q', `s${i}`), [ev(i), ev(i + 100)], {
              expectedStreamVersion: 0n,
            }),
            log.appendToStream(stream(i % 2 ? 'p' : 'q', `s${i}`), [ev(-1, { rejected: true })], {
              expectedStreamVersion: 0n,
            }),
          ]),
        );
        assert.equal(results.filter((r) => r.status === 'rejected').length, 6);
        await log.appendToStream(stream('p', 'sealed'), [sealed('subj', 'hello')]);
        await log.appendToStream(stream('p', 'end'), [ev(0, { sentinel: true })]);
        const events = await received;
        assert.deepEqual(
          events.map((e) => e.global_position),
          range1(events.length).map((n) => n + 1),
        );
        assert.equal(events.length, 14);
        assert.ok(events.every((e) => e.data.rejected !== true));
        const committed = (await allEvents(log)).slice(1);
        assert.deepEqual(
          events.map((e) => e.event_id),
          committed.map((e) => e.event_id),
        );
        assert.deepEqual(events.at(-2)!.data, { text: 'hello' });
      }));
  });

  describe('catalog validation', () => {
    it('rejects unknown types and bad data and appends nothing of that append', () =>
      withLog(
        open,
        async (log) => {
          const name = stream('p', 'a');
          assertInvalid(
            await rejection(log.appendToStream(name, [{ type: 'nope.happened', data: {} }])),
          );
          assertInvalid(await rejection(log.appendToStream(name, [ev(1), ev(1.5)])));
          assertInvalid(
            await rejection(log.appendToStream(name, [{ type: 'thing.said', data: { text: 3 } }])),
          );
          assert.equal(await log.head(), 0);
          assert.equal(await log.streamExists(name), false);
          const [bad, good] = await Promise.allSettled([
            log.appendToStream(name, [ev(Number.NaN)]),
            log.appendToStream(name, [ev(7), sealed('s', 'fine')]),
          ]);
          assert.equal(bad.status, 'rejected');
          assertInvalid((bad as PromiseRejectedResult).reason);
          assert.equal(good.status, 'fulfilled');
          const events = await allEvents(log);
          assert.deepEqual(
            events.map((e) => [e.cursor, e.stream_version, e.data]),
            [
              [1, 1, { n: 7 }],
              [2, 2, { text: 'fine' }],
            ],
          );
        },
        strictCatalog,
      ));
  });

  describe('models', () => {
    it('gets, writes, ranges and clears read-model keys', () =>
      withLog(open, async ({ models }) => {
        assert.equal(await models.get('wp:none'), undefined);
        await models.write([
          { type: 'put', key: 'wp:1', value: { title: 'one', tags: ['a'] } },
          { type: 'put', key: 'wp:2', value: { title: 'two' } },
          { type: 'put', key: 'wp:3', value: 3 },
          { type: 'put', key: 'wq:1', value: 'other model' },
          { type: 'put', key: 'checkpoint:wp', value: 42 },
        ]);
        assert.deepEqual(await models.get('wp:1'), { title: 'one', tags: ['a'] });
        assert.deepEqual(await models.getMany(['wp:2', 'wp:9', 'checkpoint:wp']), [
          { title: 'two' },
          undefined,
          42,
        ]);
        assert.deepEqual(
          (await models.range({ prefix: 'wp:' })).map(([k]) => k),
          ['wp:1', 'wp:2', 'wp:3'],
        );
        assert.deepEqual(await models.range({ prefix: 'wp:', limit: 2, reverse: true }), [
          ['wp:3', 3],
          ['wp:2', { title: 'two' }],
        ]);
        await models.write([
          { type: 'del', key: 'wp:2' },
          { type: 'put', key: 'wp:1', value: 'replaced' },
        ]);
        assert.deepEqual(await models.range({ prefix: 'wp:' }), [
          ['wp:1', 'replaced'],
          ['wp:3', 3],
        ]);
        await models.clear('wp:');
        assert.deepEqual(await models.range({ prefix: 'wp:' }), []);
        assert.equal(await models.get('wq:1'), 'other model');
        assert.equal(await models.get('checkpoint:wp'), 42);
      }));
  });
};
