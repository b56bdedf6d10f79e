import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { intentRef } from '../../src/events/intent/index.js';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { verifyAudit } from './audit.js';
import { intentClient, openAt, userSource, withDir, withIntentClient } from './harness.js';

const explicit = (task_id: string, statement: string) => ({
  task_id,
  statement,
  basis: 'direct_statement',
  source_ref: { ...userSource, excerpt: statement },
});

describe('intent privacy on disk (LevelDB)', () => {
  it('private mode writes no statement to disk, and a restart fails closed', () =>
    withDir((data) =>
      withDir(async (root) => {
        const secret = 'PRIVATE-the-user-wants-feature-zeta-71943';
        let task_id: string;
        {
          const app = await openAt(data);
          const c = await intentClient(app, [root]);
          task_id = String((await c.ok('intent_start_task')).task_id);
          await c.ok('intent_set_mode', { task_id, mode: 'private', host_session_id: 'sess-1' });
          await c.ok('intent_add_explicit', explicit(task_id, secret));
          const snap = (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as {
            current: { statement: string }[];
          };
          assert.deepEqual(
            snap.current.map((l) => l.statement),
            [secret],
          );
          await c.close();
          await app.close();
        }
        assert.deepEqual(await filesHolding(data, [secret, 'sess-1']), []);

        await withIntentClient(data, [root], async (c) => {
          const read = await c.call('intent_get_snapshot', { task_id });
          assert.equal(read.error?.code, 'PRIVATE_STATE_UNAVAILABLE');
          const write = await c.call('intent_add_explicit', explicit(task_id, 'another'));
          assert.equal(write.error?.code, 'PRIVATE_STATE_UNAVAILABLE');
          await c.ok('intent_set_mode', { task_id, mode: 'off' });
          const off = await c.ok('intent_add_explicit', explicit(task_id, 'while off'));
          assert.equal(off.mode, 'off');
          await c.ok('intent_set_mode', { task_id, mode: 'on' });
          const snap = (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as {
            active_claims: number;
          };
          assert.equal(snap.active_claims, 0, 'neither the private nor the off claim exists');
        });
        assert.deepEqual(await filesHolding(data, [secret]), []);
      }),
    ));

  it('intent_delete needs the exact token, then leaves no byte of the claim and a valid audit', () =>
    withDir((data) =>
      withDir(async (root) => {
        const doomed = 'DELETE-the-user-once-said-codename-aurora-55821';
        const kept = 'KEEP-the-user-wants-the-docs-in-english-30117';
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        let task_id: string;
        try {
          task_id = String((await c.ok('intent_start_task')).task_id);
          const gone = await c.ok('intent_add_explicit', explicit(task_id, doomed));
          await c.ok('intent_add_explicit', explicit(task_id, kept));
          const wrong = await c.call('intent_delete', {
            task_id,
            claim_id: gone.claim_id,
            confirmation: 'yes',
          });
          assert.equal(wrong.error?.code, 'CONFIRMATION_MISMATCH');
          const deleted = await c.ok('intent_delete', {
            task_id,
            claim_id: gone.claim_id,
            confirmation: `DELETE CLAIM ${gone.claim_id}`,
          });
          assert.deepEqual(deleted.verification, {
            view_clear: true,
            export_clear: true,
            bytes_clear: true,
            files_holding: [],
          });
          const graph = await c.ok('intent_export', { task_id, format: 'graph' });
          assert.ok(!JSON.stringify(graph).includes(doomed));
          assert.ok(JSON.stringify(graph).includes(kept));
        } finally {
          await c.close();
          await app.close();
        }
        assert.deepEqual(await filesHolding(data, [doomed]), []);
        // the search does find what is stored in plain bytes (stream names hold the task's ref)
        assert.notDeepEqual(await filesHolding(data, [intentRef(task_id)]), []);
        await verifyAudit(data);
      }),
    ));
});
