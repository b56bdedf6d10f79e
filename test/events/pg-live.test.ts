import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LogEvent } from '../../src/events/index.js';
import { pgLive } from '../../src/events/postgres/pg-live.js';

const event = (global_position: number) => ({ global_position }) as LogEvent;

it('the PostgreSQL live tail tells onError of a read it survives, then delivers', async () => {
  const errors: unknown[] = [];
  let reads = 0;
  let readFailed: () => void = () => {};
  const failedOnce = new Promise<void>((resolve) => (readFailed = resolve));
  const live = pgLive({
    // nothing listens there: the listener's failures are told too, and retried
    connectionString: 'postgres://nobody@127.0.0.1:1/none',
    channel: 'test',
    pollMs: 60_000,
    readAll: async (after) => {
      if (++reads === 1) throw new Error('read failed');
      return after === 0 ? [event(1), event(2)] : [];
    },
    onError: (error) => {
      errors.push(error);
      if (error instanceof Error && error.message === 'read failed') readFailed();
    },
  });
  const seen: number[] = [];
  const delivered = new Promise<void>((resolve) =>
    live.observable().subscribe((e) => {
      seen.push(e.global_position);
      if (seen.length === 2) resolve();
    }),
  );
  // an own commit that is not next in line wakes the tail to read what it missed: that read
  // fails and is told; the next wake reads again and delivers
  live.committed([event(2)]);
  await failedOnce;
  assert.deepEqual(seen, []);
  live.committed([event(2)]);
  await delivered;
  assert.deepEqual(seen, [1, 2]);
  await live.close();
});
