import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { agentSource, withDir, withIntentClient } from './harness.js';

describe('intent error envelopes', () => {
  it('name the project and task the call had resolved when it failed', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const start = await c.call('intent_start_task');
          const project_id = start.project_id!;
          assert.match(project_id, /^intent-/);

          const missing = randomUUID();
          const notFound = await c.call('intent_get_snapshot', { task_id: missing });
          assert.equal(notFound.error?.code, 'TASK_NOT_FOUND');
          assert.equal(notFound.project_id, project_id);
          assert.equal(notFound.task_id, missing);

          // refused by the task's rules, after the project was resolved
          const refused = await c.call('intent_invalidate', {
            task_id: start.task_id,
            claim_id: randomUUID(),
            reason: 'no such claim',
            source_ref: agentSource,
          });
          assert.equal(refused.error?.code, 'CLAIM_NOT_FOUND');
          assert.equal(refused.project_id, project_id);
          assert.equal(refused.task_id, start.task_id);

          // no root resolved: no project to name
          const noRoot = await c.call('intent_get_snapshot', {
            task_id: missing,
            project_root: 'relative/path',
          });
          assert.equal(noRoot.error?.code, 'PROJECT_ROOT_INVALID');
          assert.equal(noRoot.project_id, null);
          assert.equal(noRoot.task_id, missing);
        });
      }),
    ));
});
