import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { openEventLog, writerSocketPath } from '../../src/events/open-log.js';
import { testCatalog } from '../fixtures/test-catalog.js';

test('a writer that serves no followers holds the data dir until it closes; then another is elected', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-private-writer-'));
  try {
    // Given a writer that serves no followers (`token create` opens the log this way)
    const private_ = await openEventLog({ dataDir, catalog: testCatalog, serveFollowers: false });
    assert.equal(private_.role(), 'writer');
    assert.equal(existsSync(writerSocketPath(dataDir)), false, 'it listens on no socket');

    // When another process opens the same data dir meanwhile
    let closed = false;
    const other = openEventLog({ dataDir, catalog: testCatalog }).then((log) => {
      assert.ok(closed, 'no one is served while the private writer holds the data dir');
      return log;
    });
    await private_.appendToStream('note-1', [{ type: 'note.added', data: { text: 'kept' } }]);
    await sleep(300); // the other keeps trying the lock and the socket meanwhile
    closed = true;
    await private_.close();

    // Then it becomes the writer once the private one closed, and reads what it appended
    const log = await other;
    try {
      assert.equal(log.role(), 'writer');
      const read = await log.readStream('note-1');
      assert.deepEqual(
        read.events.map((e) => e.data),
        [{ text: 'kept' }],
      );
    } finally {
      await log.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
