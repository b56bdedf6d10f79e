// In-process tests of what a takeover relies on, made deterministic with a route that loses its
// writer on purpose: a retried append is not doubled, and a live subscription resumes from the
// last position it saw, catching up on what it missed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  levelEventLog,
  openMemoryLevel,
  type EventLog,
  type LogEvent,
} from '../../src/events/index.js';
import { WriterLostError } from '../../src/events/remote/errors.js';
import type { Elect } from '../../src/events/remote/route-keeper.js';
import { startWriter, writerEndpoint, type Route } from '../../src/events/remote/route.js';
import { sharedEventLog } from '../../src/events/remote/shared-log.js';
import { testCatalog } from '../fixtures/test-catalog.js';

const note = (text: string) => ({ type: 'note.added', data: { text } });

/** Lets the event loop run until `done` holds, for a bounded number of turns. */
const settle = async (done: () => boolean): Promise<void> => {
  for (let turn = 0; turn < 10_000 && !done(); turn++)
    await new Promise((resolve) => setImmediate(resolve));
};

/** A follower route whose writer "dies" right after serving one `op`, before answering it. */
const dyingAfter = (log: EventLog, op: string, onLost: () => void): Route => {
  const endpoint = writerEndpoint(log, {});
  return {
    role: 'follower',
    request: async (name, args) => {
      const result = await endpoint.request(name, args);
      if (name !== op) return result;
      onLost();
      throw new WriterLostError();
    },
    subscribe: endpoint.subscribe,
    close: async () => {},
  };
};

/**
 * First a route from `first`, then (once `takeover` resolves) this process becomes the writer
 * over the same log.
 */
const electTwice =
  (log: EventLog, first: (onLost: () => void) => Route, takeover?: Promise<void>): Elect =>
  async ({ onLost }) => {
    elections++;
    if (elections === 1) return first(onLost);
    await takeover;
    return startWriter(log, {});
  };
let elections = 0;

test('an append whose answer was lost with the writer is retried, not doubled', async () => {
  elections = 0;
  const local = await levelEventLog(await openMemoryLevel(), testCatalog);
  const log = await sharedEventLog(
    electTwice(local, (onLost) => dyingAfter(local, 'log.append', onLost)),
  );
  const result = await log.appendToStream('note:p1:a', [note('one'), note('two')]);
  assert.equal(elections, 2, 'the first writer died after committing');
  assert.equal(log.role(), 'writer');
  assert.equal(result.lastEventGlobalPosition, 2n);
  const stored = await log.readAll({ after: 0, limit: 10 });
  assert.deepEqual(
    stored.map((e) => e.data.text),
    ['one', 'two'],
  );
  await log.close();
});

test('a live subscription resumes after a takeover from the last position it saw', async () => {
  elections = 0;
  const local = await levelEventLog(await openMemoryLevel(), testCatalog);
  let loseWriter = (): void => {};
  const first = (onLost: () => void): Route => {
    const endpoint = writerEndpoint(local, {});
    return {
      ...dyingAfter(local, 'none', onLost),
      subscribe: (after, observer) => {
        const stop = endpoint.subscribe(after, observer);
        loseWriter = () => {
          stop();
          onLost();
          observer.error(new WriterLostError());
        };
        return stop;
      },
    };
  };
  let takeOver = (): void => {};
  const takeover = new Promise<void>((resolve) => (takeOver = resolve));
  const log = await sharedEventLog(electTwice(local, first, takeover));
  const seen: LogEvent[] = [];
  const subscription = log.live().subscribe((e) => seen.push(e));
  await log.head(); // the subscription is registered with the first writer
  await log.appendToStream('note:p1:a', [note('1'), note('2')]);
  await settle(() => seen.length >= 2);

  loseWriter(); // the writer dies; these commit before the subscription is back
  await local.appendToStream('note:p1:a', [note('3'), note('4')]);
  takeOver();
  await log.appendToStream('note:p1:a', [note('5')]);
  await settle(() => seen.length >= 5);

  assert.equal(elections, 2);
  assert.deepEqual(
    seen.map((e) => [e.global_position, e.data.text]),
    [1, 2, 3, 4, 5].map((n) => [n, String(n)]),
  );
  subscription.unsubscribe();
  await log.close();
});
