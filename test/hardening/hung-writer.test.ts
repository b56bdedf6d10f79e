import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { domainErrorOf } from '../../src/commands/store-errors.js';
import { openEventLog } from '../../src/events/open-log.js';
import { WriterTimeoutError } from '../../src/events/remote/timeouts.js';
import { spawnFixture, waitUntil } from '../fixtures/children.js';
import { testCatalog } from '../fixtures/test-catalog.js';

const note = (text: string) => [{ type: 'note.added', data: { text } }];

describe('a writer that holds the lock and stops answering (issue 19, defect 8)', () => {
  it('followers time out (outcome unknown for a write), then recover when a new writer takes over', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-hung-'));
    const writer = spawnFixture('writer-host.ts', [dataDir], 'writer');
    const previous = process.env.INTENTLOG_WRITER_TIMEOUT_MS;
    process.env.INTENTLOG_WRITER_TIMEOUT_MS = '400';
    try {
      await waitUntil('the writer is ready', () => writer.lines.some((l) => l.ready));
      const log = await openEventLog({ dataDir, catalog: testCatalog });
      try {
        assert.equal(log.role(), 'follower');
        await log.appendToStream('note:p:one', note('before'), { appendId: 'a-1' });

        writer.proc.kill('SIGSTOP');
        const started = Date.now();
        const write = await log
          .appendToStream('note:p:one', note('during'), { appendId: 'a-2' })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        assert.ok(write instanceof WriterTimeoutError, `not a timeout: ${String(write)}`);
        assert.equal(write.outcome, 'unknown');
        assert.ok(Date.now() - started < 5_000, 'the timeout did not bound the wait');
        const answer = domainErrorOf(write);
        assert.equal(answer?.code, 'unavailable');
        assert.equal(answer?.details.outcome, 'unknown');
        const read = await log.head().then(
          () => undefined,
          (error: unknown) => error,
        );
        assert.ok(read instanceof WriterTimeoutError);
        assert.equal(read.outcome, undefined, 'a read leaves nothing in doubt');

        writer.proc.kill('SIGKILL');
        await writer.exit;
        // the retry of the write that timed out, with its id: done once, whatever happened first
        await log.appendToStream('note:p:one', note('during'), { appendId: 'a-2' });
        await log.appendToStream('note:p:one', note('during'), { appendId: 'a-2' });
        const texts = (await log.readAll({ after: 0, limit: 100 })).map(
          (e) => (e.data as { text: string }).text,
        );
        assert.deepEqual(texts, ['before', 'during']);
        assert.equal(log.role(), 'writer', 'this process took over');
      } finally {
        await log.close();
      }
    } finally {
      if (previous === undefined) delete process.env.INTENTLOG_WRITER_TIMEOUT_MS;
      else process.env.INTENTLOG_WRITER_TIMEOUT_MS = previous;
      writer.proc.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
