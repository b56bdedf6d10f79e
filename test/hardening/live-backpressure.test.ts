import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { encodeFrame, frameReader } from '../../src/events/remote/frames.js';
import type { Endpoint } from '../../src/events/remote/route.js';
import { serveWriter } from '../../src/events/remote/writer-server.js';

const LIMIT = 1024 * 1024;
const EVENT_BYTES = 64 * 1024;

describe('a live subscriber that stops reading (issue 19, defect 8)', () => {
  it('is dropped with subscriber_overflow once its buffer is full; the writer is not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-slow-'));
    let emitted = 0;
    let stopped = false;
    const endpoint: Endpoint = {
      request: async () => null,
      subscribe: (_after, observer) => {
        observer.started(0);
        const pump = (): void => {
          if (stopped || emitted >= 2_000) return;
          observer.next({ global_position: ++emitted, blob: 'x'.repeat(EVENT_BYTES) } as never);
          setImmediate(pump);
        };
        setImmediate(pump);
        return () => {
          stopped = true;
        };
      },
    };
    const server = await serveWriter(join(dir, 'w.sock'), endpoint, { maxBufferedBytes: LIMIT });
    const socket = createConnection(join(dir, 'w.sock'));
    try {
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.pause(); // a follower that never reads
      socket.write(encodeFrame({ id: 1, op: 'live', args: {} }));
      while (!stopped && emitted < 2_000) await new Promise((r) => setTimeout(r, 20));
      assert.ok(stopped, 'the subscription was never ended');
      // kernel socket buffers hold some; the writer's own queue holds at most the limit
      assert.ok(emitted * EVENT_BYTES < LIMIT + 8 * 1024 * 1024, `${emitted} events queued`);

      const end = await new Promise<Record<string, unknown>>((resolve) => {
        const read = frameReader((frame) => {
          if ((frame as { end?: boolean }).end) resolve(frame as Record<string, unknown>);
        });
        socket.on('data', read);
        socket.resume();
      });
      assert.equal((end.error as { code: string }).code, 'subscriber_overflow');
      assert.match((end.error as { message: string }).message, /subscribe again/);
    } finally {
      socket.destroy();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
