import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { userSource, withDir, withIntentClient } from './harness.js';

/**
 * intent-loop's security regressions on what a caller sends: a prompt or transcript is not a
 * claim, and ids (stored as they are, outside every claim's shredding key) hold no credential.
 * Each refusal appends nothing.
 */
describe('intent: transcripts and credential-shaped ids are refused', () => {
  it('refuses transcript-shaped statements and credential-shaped ids, writing nothing', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const task_id = String((await c.ok('intent_start_task')).task_id);
          const head = await app.log.head();
          const explicit = (over: Record<string, unknown>) =>
            c.call('intent_add_explicit', {
              task_id,
              statement: 'Keep the CLI flags stable',
              basis: 'direct_statement',
              source_ref: userSource,
              ...over,
            });
          const refusals: [string, Record<string, unknown>][] = [
            ['RAW_PROMPT_REJECTED', { statement: 'User: fix it\nAssistant: done\nUser: thanks' }],
            ['RAW_PROMPT_REJECTED', { statement: 'word '.repeat(1000) }],
            ['SENSITIVE_ID_REJECTED', { request_id: 'ghp_abcdefghijklmnopqrstuvwxyz012345' }],
            ['SENSITIVE_ID_REJECTED', { request_id: 'password:hunter2hunter2' }],
            [
              'SENSITIVE_ID_REJECTED',
              { source_ref: { kind: 'user_event', event_id: 'sk-proj-abcdefghijklmnopqrstuvwx' } },
            ],
            ['INVALID_SOURCE', { source_ref: { kind: 'user_event', event_id: '/home/u/.ssh/x' } }],
            ['INVALID_REQUEST_ID', { request_id: 'two words' }],
          ];
          for (const [code, over] of refusals) {
            const answer = await explicit(over);
            assert.equal(answer.error?.code, code, JSON.stringify(over).slice(0, 80));
          }
          const start = await c.call('intent_start_task', {
            initial_explicit: ['first line\nsecond line'],
          });
          assert.equal(start.error?.code, 'RAW_PROMPT_REJECTED');
          assert.equal(await app.log.head(), head, 'no refusal appended anything');
          const fine = await explicit({ request_id: 'turn-42:a@b.c' });
          assert.equal(fine.ok, true, JSON.stringify(fine.error));
        });
      }),
    ));
});
