import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { startServe } from '../e2e/harness.js';
import { canSeeLocks, lockHolders } from '../support/lock-holders.js';

type Envelope = { ok: boolean; result?: Record<string, unknown>; error?: unknown };

const connect = async (url: string, token: string) => {
  const client = new Client({ name: 'lock-e2e', version: '1' });
  const headers = { Authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const envelope = (await client.callTool({ name, arguments: args }))
      .structuredContent as Envelope;
    if (!envelope.ok) throw new Error(`${name} failed: ${JSON.stringify(envelope)}`);
    return envelope.result!;
  };
  return { client, ok };
};

const explicit = (project_root: string, task_id: string, statement: string) => ({
  project_root,
  task_id,
  statement,
  basis: 'direct_statement',
  source_ref: { kind: 'user_event', event_id: 'u-1', excerpt: statement },
});

describe('the server keeps the data dir after intent_delete scans it (issue 28, item 1)', () => {
  it('a CLI started after intent_delete is a follower; every acknowledged write survives', () =>
    withDataDir(async (dir) => {
      const root = `${dir}-project`;
      await mkdir(root, { recursive: true });
      const serving = await startServe(dir, ['--surface', 'intent,system']);
      const lockFile = join(dir, 'log', 'LOCK');
      const kept: string[] = [];
      const tokens: string[] = [];
      let task_id: string;
      try {
        const system = (await cliIn(dir, ['token', 'create', '--system'])).stdout.trim();
        const server = await connect(serving.url, system);
        task_id = String((await server.ok('intent_start_task', { project_root: root })).task_id);
        const doomed = 'DELETE-codename-borealis-90210-never-on-disk';
        const gone = await server.ok('intent_add_explicit', explicit(root, task_id, doomed));

        // Given the server scanned its data dir to verify a delete
        const deleted = await server.ok('intent_delete', {
          project_root: root,
          task_id,
          claim_id: gone.claim_id,
          confirmation: `DELETE CLAIM ${String(gone.claim_id)}`,
        });
        assert.equal((deleted.verification as { bytes_clear: boolean }).bytes_clear, true);

        // Then it still holds the store's lock
        if (canSeeLocks)
          assert.deepEqual(await lockHolders(lockFile), [serving.proc.pid], 'the server holds it');

        // When CLI processes and the server write in turn
        for (let i = 0; i < 5; i++) {
          const created = await cliIn(dir, ['token', 'create', '--actor', `actor-${i}`]);
          assert.equal(created.code, 0, created.stderr);
          tokens.push(created.stdout.trim());
          const statement = `KEEP-claim-${i}-acknowledged-by-the-server`;
          await server.ok('intent_add_explicit', explicit(root, task_id, statement));
          kept.push(statement);
        }
        // Then the server knows each token the CLI made (it went through the server)
        for (const [i, token] of tokens.entries()) {
          const as = await connect(serving.url, token);
          const me = await as.ok('whoami');
          assert.deepEqual(me.principal, { kind: 'actor', actor_id: `actor-${i}` });
          await as.client.close();
        }
        // and a sign-in link the CLI printed opens the web view (its code too went through it)
        const opened = await cliIn(dir, ['open', '--url', serving.url.replace(/\/mcp$/, '')]);
        assert.equal(opened.code, 0, opened.stderr);
        const signedIn = await fetch(opened.stdout.trim(), { redirect: 'manual' });
        assert.equal(signedIn.status, 303, 'the server knows the code the CLI made');
        await server.client.close();
        assert.equal(await serving.stop('SIGTERM'), 0, serving.stderr());
      } finally {
        serving.proc.kill('SIGKILL');
      }

      // And after a restart every acknowledged write is there, and the log verifies
      const listed = await cliIn(dir, ['token', 'list']);
      assert.equal(listed.code, 0, listed.stderr);
      for (let i = 0; i < 5; i++) assert.match(listed.stdout, new RegExp(`actor actor-${i}\\t`));
      const again = await startServe(dir, ['--surface', 'intent,system']);
      try {
        const system = (await cliIn(dir, ['token', 'create', '--system'])).stdout.trim();
        const server = await connect(again.url, system);
        const snapshot = JSON.stringify(
          await server.ok('intent_get_snapshot', { project_root: root, task_id }),
        );
        for (const statement of kept) assert.ok(snapshot.includes(statement), statement);
        await server.client.close();
      } finally {
        await again.stop('SIGTERM');
      }
      const verified = await cliIn(dir, ['audit', 'verify']);
      assert.equal(verified.code, 0, verified.stderr);
    }));
});
