import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { routeKeeper, type Elect } from '../../src/events/remote/route-keeper.js';
import type { Route } from '../../src/events/remote/route.js';

const enospc = () =>
  Object.assign(new Error('IO error: /data/log/MANIFEST-000007: No space left on device'), {
    code: 'LEVEL_IO_ERROR',
  });

/** A writer route answering every op with its name; `fail()` makes it step down. */
const writerRoute = (): Route & { fail(): void } => {
  let fail!: () => void;
  const failed = new Promise<unknown>((resolve) => (fail = () => resolve(enospc())));
  return {
    role: 'writer',
    request: async (op) => op,
    subscribe: () => () => {},
    close: async () => {},
    failed,
    fail,
  };
};

describe('a store that cannot be reopened while the disk is full (route-keeper.ts)', () => {
  it('tells calls the disk’s error at once, then answers again once the store opens', async () => {
    let diskFull = false;
    let routes = 0;
    let first: ReturnType<typeof writerRoute> | undefined;
    const elect: Elect = async ({ failing, closed }) => {
      for (;;) {
        if (closed()) throw new Error('closed');
        if (!diskFull) {
          routes++;
          const route = writerRoute();
          first ??= route;
          return route;
        }
        failing?.(enospc());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const keeper = routeKeeper(elect);
    try {
      await keeper.ready();
      assert.equal(await keeper.invoke('log.head', () => undefined), 'log.head');
      // the writer's write failed; reopening meets the full disk
      diskFull = true;
      first!.fail();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      await assert.rejects(
        keeper.invoke('log.head', () => undefined),
        /No space left/,
      );
      assert.ok(performance.now() - started < 100, 'the call waited for a writer');
      // space returns: the election goes through and calls are answered again
      diskFull = false;
      for (let i = 0; i < 50 && routes < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(await keeper.invoke('log.head', () => undefined), 'log.head');
    } finally {
      await keeper.close();
    }
  });
});
