import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { userSource, withDir, withIntentClient } from './harness.js';

type Verification = { view_clear: boolean; export_clear: boolean; bytes_clear: boolean | null };
type Snap = { current: { claim_id: string; statement: string }[] };

const explicit = (task_id: string, statement: string) => ({
  task_id,
  statement,
  basis: 'direct_statement',
  source_ref: { ...userSource, excerpt: statement },
});

/**
 * intent-loop's security-regressions "task deletion removes durable history and a live private
 * overlay", "claim deletion removes … memory-only private claims", "a pure private task can be
 * … deleted after process restart".
 */
describe('intent: deleting private state', () => {
  it('deletes a claim held only in memory, then the task, and reports both clear', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const task_id = String(
            (await c.ok('intent_start_task', { host_session_id: 'S1' })).task_id,
          );
          await c.ok('intent_set_mode', { task_id, mode: 'private', host_session_id: 'S1' });
          const doomed = await c.ok('intent_add_explicit', explicit(task_id, 'PRIV-doomed-4417'));
          await c.ok('intent_add_explicit', explicit(task_id, 'PRIV-kept-9921'));
          const head = await app.log.head();

          const claim_id = String(doomed.claim_id);
          const one = await c.call('intent_delete', {
            task_id,
            claim_id,
            confirmation: `DELETE CLAIM ${claim_id}`,
          });
          assert.equal(one.ok, true, JSON.stringify(one.error));
          const check = (one.result as { verification: Verification }).verification;
          assert.equal(check.view_clear, true);
          assert.equal(check.export_clear, true);
          assert.equal(await app.log.head(), head, 'a memory-only claim appends nothing');
          const snap = (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as Snap;
          assert.deepEqual(
            snap.current.map((l) => l.statement),
            ['PRIV-kept-9921'],
          );
          const mid = await c.ok('intent_status');
          assert.equal(
            (mid.private_control as unknown as { claims_in_memory: number }).claims_in_memory,
            1,
          );

          const all = await c.call('intent_delete', {
            task_id,
            confirmation: `DELETE TASK ${task_id}`,
          });
          assert.equal(all.ok, true, JSON.stringify(all.error));
          const result = all.result as { deleted_claims: string[]; verification: Verification };
          assert.equal(result.deleted_claims.length, 1);
          assert.deepEqual(result.verification, {
            ...result.verification,
            view_clear: true,
            export_clear: true,
            bytes_clear: true,
          });
          const gone = await c.call('intent_get_snapshot', { task_id });
          assert.equal(gone.error?.code, 'TASK_DELETED');
          const status = await c.ok('intent_status');
          assert.deepEqual(status.private_control, { tasks_in_memory: 0, claims_in_memory: 0 });
          assert.equal((status.tasks as unknown as { deleted: number }).deleted, 1);
        });
      }),
    ));

  it('a private task is deletable after a restart', () =>
    withDir((data) =>
      withDir(async (root) => {
        let task_id: string;
        {
          await withIntentClient(data, [root], async (c) => {
            task_id = String((await c.ok('intent_start_task')).task_id);
            await c.ok('intent_set_mode', { task_id, mode: 'private', host_session_id: 'S1' });
            await c.ok('intent_add_explicit', explicit(task_id, 'lost on restart'));
          });
        }
        await withIntentClient(data, [root], async (c) => {
          const deleted = await c.call('intent_delete', {
            task_id,
            confirmation: `DELETE TASK ${task_id}`,
          });
          assert.equal(deleted.ok, true, JSON.stringify(deleted.error));
          const gone = await c.call('intent_get_snapshot', { task_id });
          assert.equal(gone.error?.code, 'TASK_DELETED');
        });
      }),
    ));
});
