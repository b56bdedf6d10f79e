import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { flipBytes } from '../support/flip-bytes.js';
import { intentClient, openAt, userSource, withDir } from './harness.js';
import { stdio } from './stdio-client.js';

/**
 * A corrupt store over stdio (NOTES.md: "a corrupt middle record stops projection", fail closed
 * for state): the server stays connected, intent_status reports the corruption, every other
 * tool answers CORRUPT_LEDGER, and nothing is read or written.
 */
describe('intent over stdio with a corrupt store', () => {
  it('status reports corrupt, other tools answer CORRUPT_LEDGER, the connection stays', () =>
    withDir((data) =>
      withDir(async (root) => {
        let task_id: string;
        {
          const app = await openAt(data);
          const c = await intentClient(app, [root]);
          try {
            task_id = String((await c.ok('intent_start_task')).task_id);
            for (let n = 0; n < 40; n++)
              await c.ok('intent_add_explicit', {
                task_id,
                statement: `statement ${n} ${'x'.repeat(200)}`,
                basis: 'direct_statement',
                source_ref: userSource,
              });
          } finally {
            await c.close();
            await app.close();
          }
        }
        await flipBytes(data, '.log');
        const s = await stdio(data, [root]);
        try {
          const status = await s.call('intent_status', {});
          assert.equal(status.ok, true, JSON.stringify(status.error));
          const result = status.result as {
            corruption_status: string;
            project_known: boolean;
            storage: { data_dir: string };
            corruption: { repair: string };
          };
          assert.equal(result.corruption_status, 'corrupt');
          assert.equal(result.project_known, false);
          assert.equal(result.storage.data_dir, data);
          assert.match(result.corruption.repair, /intentlog audit repair --data-dir/);

          const snap = await s.call('intent_get_snapshot', { task_id });
          assert.equal(snap.ok, false);
          assert.equal(snap.error?.code, 'CORRUPT_LEDGER');
          assert.equal(snap.error?.retryable, false);

          const again = await s.call('intent_status', {});
          assert.equal(again.ok, true, 'the connection is still open');
        } finally {
          await s.client.close();
        }
      }),
    ));
});
