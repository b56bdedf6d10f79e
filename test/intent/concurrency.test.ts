import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { agentSource, intentClient, openAt, withDir } from './harness.js';

describe('intent under concurrency', () => {
  it('24 concurrent writers on one task: every write lands once, retries replay', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        try {
          const task_id = String((await c.ok('intent_start_task')).task_id);
          const write = (i: number) =>
            c.ok('intent_add_inference', {
              task_id,
              request_id: `w-${i}`,
              statement: `writer ${i} infers something`,
              confidence: 0.5,
              source_ref: agentSource,
            });
          const writers = Array.from({ length: 24 }, (_, i) => i);
          const first = await Promise.all(writers.map(write));
          const retried = await Promise.all(writers.map(write));
          const ids = first.map((r) => String(r.claim_id));
          assert.equal(new Set(ids).size, 24);
          assert.deepEqual(
            retried.map((r) => String(r.claim_id)),
            ids,
          );
          const snap = (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as {
            active_claims: number;
          };
          assert.equal(snap.active_claims, 24);
        } finally {
          await c.close();
          await app.close();
        }
      }),
    ));
});
