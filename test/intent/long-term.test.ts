import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { agentSource, withDir, withIntentClient } from './harness.js';

type Snap = {
  current: { claim_id: string; statement: string; epistemic_status: string; scope: string }[];
  active_claims: number;
  candidate_count: number;
};

/**
 * intent-loop's service.test "long-term inference stays a candidate until three tasks and
 * direct confirmation", over MCP: the candidate is no current claim, recurrence is reported per
 * candidate, and the confirmation is the user's own wording as a new user-explicit claim.
 */
describe('intent: long-term preferences wait for three tasks and the user', () => {
  it('a candidate stays out of the snapshot until the user confirms it in their words', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const inference = 'The user seems to prefer dense tables with keyboard shortcuts';
          const words = 'Across projects, I prefer dense keyboard-first tables.';
          const confirm = (task_id: string) =>
            c.call('intent_add_explicit', {
              task_id,
              basis: 'confirmed_candidate',
              scope: 'long_term',
              statement: words,
              source_ref: { kind: 'user_event', event_id: 'confirm-1' },
            });
          const snapshot = async (task_id: string) =>
            (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as Snap;
          const added: { task_id: string; claim_id: string; task_ids: string[] }[] = [];
          for (let i = 0; i < 3; i++) {
            const { task_id } = await c.ok('intent_start_task');
            const result = await c.ok('intent_add_inference', {
              task_id,
              statement: inference,
              confidence: 0.7,
              scope: 'long_term',
              signal_key: 'dense-keyboard-tables',
              source_ref: agentSource,
            });
            assert.equal(result.candidate, true);
            assert.equal(result.candidate_type, 'long_term_preference');
            added.push({
              task_id: String(task_id),
              claim_id: String(result.claim_id),
              task_ids: result.task_ids as unknown as string[],
            });
            const snap = await snapshot(String(task_id));
            assert.deepEqual(snap.current, [], 'a candidate is not what the user wants (yet)');
            assert.equal(snap.active_claims, 0);
            assert.equal(snap.candidate_count, 1);
            if (i === 1) {
              const early = await confirm(String(task_id));
              assert.equal(early.error?.code, 'LONG_TERM_CONFIRMATION_REQUIRED');
            }
          }
          assert.deepEqual(
            added.map((a) => a.task_ids.length),
            [1, 2, 3],
          );
          assert.deepEqual(added[2]!.task_ids, added.map((a) => a.task_id).sort());
          const first = await c.ok('intent_list_candidates', { task_id: added[0]!.task_id });
          const [waiting] = first.candidates as unknown as { task_ids: string[] }[];
          assert.deepEqual(
            waiting?.task_ids,
            added.map((a) => a.task_id).sort(),
            'each candidate lists the tasks its preference recurred in, as of now',
          );

          const third = added[2]!;
          const confirmed = await confirm(third.task_id);
          assert.equal(confirmed.ok, true, JSON.stringify(confirmed.error));
          const result = confirmed.result as Record<string, unknown>;
          assert.notEqual(result.claim_id, third.claim_id, 'a new claim, not the candidate');
          assert.equal(result.epistemic_status, 'explicit');
          assert.equal(result.scope, 'long_term');
          assert.equal(result.candidate, false);
          assert.equal(result.promoted_from, third.claim_id);
          const snap = await snapshot(third.task_id);
          assert.deepEqual(
            snap.current.map((l) => [l.claim_id, l.statement, l.epistemic_status, l.scope]),
            [[result.claim_id, words, 'explicit', 'long_term']],
          );
          const listed = await c.ok('intent_list_candidates', { task_id: third.task_id });
          assert.deepEqual(listed.candidates, [], 'the confirmed candidate is no candidate now');
        });
      }),
    ));
});
