import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { runHookCli } from './hook-cli.js';
import { withDir, withIntentClient } from './harness.js';

/**
 * intent_start_task names an existing task with another host session: that session feeds the
 * task from now on, and the session it had before no longer does (intent-loop's
 * security-regressions "reassociation revokes an old Hook session").
 */
describe('intent: a start associates a task with a host session', () => {
  it('the last session associated feeds the task; the earlier one records nothing', () =>
    withDir((data) =>
      withDir(async (root) => {
        let task_id: string;
        {
          await withIntentClient(data, [root], async (c) => {
            task_id = String((await c.ok('intent_start_task', { host_session_id: 'S1' })).task_id);
            const again = await c.ok('intent_start_task', { task_id, host_session_id: 'S2' });
            assert.equal(again.created, false);
          });
        }
        const prompt = (session: string, text: string) =>
          runHookCli('user-prompt', data, { cwd: root, session_id: session, prompt: text });
        const candidates = async () => {
          return withIntentClient(data, [root], async (c) => {
            const listed = await c.ok('intent_list_candidates', { task_id });
            return (listed.candidates as unknown as unknown[]).length;
          });
        };
        assert.equal((await prompt('S2', 'first prompt of the new session')).output.continue, true);
        assert.equal(await candidates(), 1, 'the session associated last feeds the task');
        assert.equal((await prompt('S1', 'a prompt of the old session')).output.continue, true);
        assert.equal(await candidates(), 1, 'the earlier session no longer does');
      }),
    ));
});
