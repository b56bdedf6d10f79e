import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openIntentlog } from '../../src/modules/index.js';
import { stdioClient } from '../e2e/harness.js';

/**
 * `intentlog mcp --read-only` (issue 42): a call to a tool that changes the ledger is refused,
 * naming why, and the log is exactly as it was; a read still answers.
 */
type Envelope = { ok: boolean; error?: { code: string; details?: Record<string, unknown> } };

const head = async (dataDir: string): Promise<number> => {
  const app = await openIntentlog({ dataDir });
  try {
    return await app.log.head();
  } finally {
    await app.close();
  }
};

describe('--read-only', () => {
  it('refuses every mutation before it runs: the log does not change', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'read-only-'));
    const dataDir = join(dir, 'data');
    try {
      const before = await head(dataDir);
      const { client, transport } = await stdioClient(dataDir, {
        args: ['--surface', 'governance,intent,missions,system', '--read-only'],
      });
      try {
        const listed = (await client.listTools()).tools;
        assert.ok(listed.every((t) => t.annotations?.readOnlyHint === true));
        const mutations: [string, Record<string, unknown>, string][] = [
          ['create_project', { project_id: 'p1', name: 'P' }, 'forbidden'],
          ['intent_start_task', { project_root: dir }, 'FORBIDDEN'],
          ['hai_park', { project_path: dir, item: 'later' }, 'forbidden'],
        ];
        for (const [name, args, code] of mutations) {
          const answer = await client.callTool({ name, arguments: args });
          const envelope = answer.structuredContent as Envelope;
          assert.equal(answer.isError, true, name);
          assert.equal(envelope.error?.code, code, name);
          assert.equal(envelope.error?.details?.read_only, true, name);
        }
        const whoami = await client.callTool({ name: 'whoami', arguments: {} });
        assert.equal((whoami.structuredContent as Envelope).ok, true);
      } finally {
        await transport.close();
      }
      assert.equal(await head(dataDir), before);
      // the same call without --read-only does change it: the check above can fail
      const writer = await stdioClient(dataDir, { args: ['--surface', 'governance'] });
      try {
        const made = await writer.client.callTool({
          name: 'create_project',
          arguments: { project_id: 'p1', name: 'P', idempotency_key: 'k1' },
        });
        assert.equal((made.structuredContent as Envelope).ok, true, JSON.stringify(made));
      } finally {
        await writer.transport.close();
      }
      assert.ok((await head(dataDir)) > before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
