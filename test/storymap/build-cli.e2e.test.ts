import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { stdioClient } from '../e2e/harness.js';
import { agentSession, callOf, ok } from './session.js';

describe('the building loop over stdio, the founder at the CLI', () => {
  it('the stdio process is the session; plan review, step edits and claims from `intentlog founder`', () =>
    withDataDir(async (dir) => {
      const { client } = await stdioClient(dir, { args: ['--surface', 'storymap'] });
      const call = callOf(client);
      try {
        const { project_id } = await agentSession(call);
        const started = await ok(call, 'start_story', { project_id, story_id: 'PB-1' });
        assert.match(started.claim.session_id, /^stdio-/);
        await ok(call, 'save_plan', {
          project_id,
          story_id: 'PB-1',
          steps: [{ text: 'endpoint' }, { text: 'view' }],
        });
        const asked = await cliIn(dir, [
          'founder',
          'plan',
          'request-changes',
          project_id,
          'PB-1',
          '--point',
          's2: use the gallery',
          '--point',
          'add a test',
        ]);
        assert.equal(asked.code, 0, asked.stderr);
        assert.match(asked.stdout, /f1 \(s2\): use the gallery/);
        assert.match(asked.stdout, /f2: add a test/);
        const edit = await cliIn(dir, [
          'founder',
          'plan',
          'edit',
          project_id,
          'PB-1',
          's1',
          'POST',
        ]);
        assert.equal(edit.code, 0, edit.stderr);
        const todo = await cliIn(dir, ['founder', 'todo', project_id, '--json']);
        // changes were requested: the plan now waits on the agent, not on the founder
        assert.ok(
          !JSON.parse(todo.stdout).items.some((i: { kind: string }) => i.kind === 'plan'),
          todo.stdout,
        );
        const released = await cliIn(dir, ['founder', 'release', project_id, 'PB-1']);
        assert.equal(released.code, 0, released.stderr);
        const story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
        assert.equal(story.claim, null);
        assert.equal(story.plan.steps[0].text, 'POST');
        assert.equal(story.plan.review, 'changes_requested');
        const again = await cliIn(dir, ['founder', 'release', project_id, 'PB-1']);
        assert.equal(again.code, 1);
        assert.match(again.stderr, /isn't claimed/);
      } finally {
        await client.close();
      }
    }));
});
