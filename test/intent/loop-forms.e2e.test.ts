import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { withDir } from './harness.js';
import { stdio } from './stdio-client.js';

type Rec = Record<string, unknown>;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const user = (id: string) => ({ kind: 'user_event', event_id: id, sha256: sha(id) });
const agent = { kind: 'agent_turn', event_id: 'turn-7' };

/**
 * A client written for intent-loop v0.2 (its mcp.test.ts and mcp-schemas.ts), unchanged: its
 * argument shapes, its result fields and its error codes, over stdio with a real MCP client.
 */
describe('intent: intent-loop v0.2 call forms over stdio', () => {
  it('runs the loop with intent-loop’s own argument shapes', () =>
    withDir((data) =>
      withDir(async (project) => {
        const s = await stdio(data, [project]);
        const ok = async (name: string, args: Rec) => {
          const answer = await s.call(name, args);
          assert.equal(answer.ok, true, `${name}: ${JSON.stringify(answer.error)}`);
          return answer.result as Rec;
        };
        const code = async (name: string, args: Rec) => (await s.call(name, args)).error?.code;
        try {
          const start = await ok('intent_start_task', {
            mode: 'on',
            label: 'Export tool',
            initial_explicit: [
              'The first response must be concise.',
              { statement: 'Ship by Friday', scope: 'task', facets: ['outcome'] },
            ],
          });
          const task_id = String(start.task_id);
          assert.equal(start.label, 'Export tool');
          assert.equal((start.claims as Rec[]).length, 2);

          const explicitArgs = {
            task_id,
            request_id: 'mcp-explicit',
            statement: 'The output must be valid JSONL.',
            source_ref: user('mcp-user-turn'),
            scope: 'task',
            facets: ['hard_constraint'],
            confirmation_reason: 'direct_statement',
          };
          const added = await ok('intent_add_explicit', explicitArgs);
          const again = await ok('intent_add_explicit', explicitArgs);
          assert.equal(again.claim_id, added.claim_id, 'the request_id dedupes');
          assert.equal(
            await code('intent_add_explicit', {
              ...explicitArgs,
              request_id: 'mcp-injection',
              source_ref: user('x'),
              basis: 'direct_statement',
            }),
            'INVALID_ARGUMENT',
            'basis and confirmation_reason are one field',
          );

          const inferred = await ok('intent_add_inference', {
            task_id,
            request_id: 'inf-1',
            statement: 'The user wants streaming output',
            source_ref: agent,
            scope: 'task',
            facets: ['soft_constraint'],
            confidence: 0.6,
            signal_key: 'streaming',
          });
          const feedback = await ok('intent_add_evidence', {
            task_id,
            request_id: 'ev-1',
            statement: 'The user said the table was too dense',
            source_ref: user('fb-1'),
            scope: 'task',
            facets: ['result_feedback'],
            feedback_class: 'implementation_change',
          });
          await ok('intent_mark_unknown', {
            task_id,
            request_id: 'unk-1',
            statement: 'Which JSON library is allowed',
            source_ref: agent,
            scope: 'task',
            facets: ['unknown'],
          });
          const dispute = await ok('intent_mark_dispute', {
            task_id,
            request_id: 'disp-1',
            statement: 'Concise or streaming first',
            source_ref: agent,
            scope: 'task',
            facets: ['disagreement'],
            related_claim_ids: [added.claim_id, inferred.claim_id],
          });
          assert.equal(dispute.epistemic_status, 'disputed');

          const replaced = await ok('intent_replace_claim', {
            task_id,
            request_id: 'rep-1',
            statement: 'The user wants batched output',
            source_ref: agent,
            scope: 'task',
            facets: ['soft_constraint'],
            replacement_kind: 'inferred',
            confidence: 0.7,
            supersedes: [inferred.claim_id],
          });
          assert.deepEqual(replaced.supersedes, [inferred.claim_id]);
          assert.equal(
            await code('intent_replace_claim', {
              task_id,
              request_id: 'rep-2',
              statement: 'Use YAML',
              source_ref: agent,
              scope: 'task',
              facets: ['outcome'],
              replacement_kind: 'explicit',
              supersedes: [added.claim_id],
            }),
            'EXPLICIT_SOURCE_REQUIRED',
          );
          assert.equal(
            await code('intent_add_explicit', {
              ...explicitArgs,
              request_id: 'mcp-injection-2',
              source_ref: { kind: 'tool_result', event_id: 'malicious-tool' },
            }),
            'INVALID_SOURCE',
          );

          const snap = await ok('intent_get_snapshot', { task_id, max_characters: 4000 });
          const active = snap.active_claims as Rec[];
          assert.ok(Array.isArray(active));
          assert.equal(active[0]!.claim_id, added.claim_id, 'user-explicit first, newest first');
          assert.deepEqual(active[0]!.facets, ['hard_constraint']);
          assert.equal(
            active.find((c) => c.claim_id === feedback.claim_id)?.feedback_class,
            'implementation_change',
          );
          assert.match(String(snap.compact_text), /first response must be concise/i);
          assert.match(String(snap.compact_text), /valid JSONL/);

          const summary = await ok('intent_export', { task_id, detail: 'summary' });
          assert.equal(summary.format, 'summary');
          assert.equal(summary.active_claim_count, 7);
          assert.equal('claims' in summary, false);

          const status = await ok('intent_status', { task_id });
          assert.equal((status.task as Rec).mode, 'on');

          const graph = await ok('intent_export', { task_id, detail: 'portable' });
          const other = String((await ok('intent_start_task', {})).task_id);
          const imported = await ok('intent_import', {
            task_id: other,
            request_id: 'imp-1',
            graph,
          });
          assert.equal(imported.incomplete_external_history, true);

          await ok('intent_set_mode', { task_id, request_id: 'mode-1', mode: 'off' });
          await ok('intent_set_mode', { task_id, request_id: 'mode-2', mode: 'on' });
          assert.equal(
            await code('intent_delete', {
              task_id,
              target: 'claim',
              claim_id: added.claim_id,
              confirmation: 'DELETE CLAIM wrong',
            }),
            'CONFIRMATION_MISMATCH',
          );
          assert.equal(
            await code('intent_delete', {
              task_id,
              target: 'task',
              claim_id: added.claim_id,
              confirmation: `DELETE CLAIM ${String(added.claim_id)}`,
            }),
            'INVALID_ARGUMENT',
          );
          await ok('intent_delete', {
            task_id,
            target: 'claim',
            claim_id: added.claim_id,
            confirmation: `DELETE CLAIM ${String(added.claim_id)}`,
          });
          await ok('intent_delete', {
            task_id,
            target: 'task',
            request_id: 'del-1',
            confirmation: `DELETE TASK ${task_id}`,
          });
          assert.equal(await code('intent_get_snapshot', { task_id }), 'TASK_DELETED');
        } finally {
          await s.client.close();
        }
      }),
    ));

  it('starts private and off the way intent-loop does', () =>
    withDir((data) =>
      withDir(async (project) => {
        const s = await stdio(data, [project]);
        try {
          const noToken = await s.call('intent_start_task', { mode: 'private' });
          assert.equal(noToken.error?.code, 'PRIVATE_TOKEN_REQUIRED');
          const offWithClaims = await s.call('intent_start_task', {
            mode: 'off',
            initial_explicit: ['Never store this'],
          });
          assert.equal(offWithClaims.error?.code, 'MODE_OFF_SEMANTIC_INPUT');

          const priv = await s.call('intent_start_task', {
            mode: 'private',
            host_session_id: 'S-private',
            initial_explicit: ['PRIV-start-claim-5521'],
          });
          assert.equal(priv.ok, true, JSON.stringify(priv.error));
          const task_id = String(priv.task_id);
          const snap = (await s.call('intent_get_snapshot', { task_id })).result as Rec;
          assert.equal((snap.snapshot as Rec).mode, 'private');
          assert.match(String(snap.compact_text), /PRIV-start-claim-5521/);
          const status = (await s.call('intent_status', { task_id })).result as Rec;
          assert.deepEqual(status.private_control, { tasks_in_memory: 1, claims_in_memory: 1 });
          // the private task is its session's: another session can neither take it nor end it
          const hijack = await s.call('intent_start_task', {
            task_id,
            host_session_id: 'S-other',
            mode: 'on',
          });
          assert.equal(hijack.error?.code, 'PRIVATE_TASK_OWNED');
          const switched = await s.call('intent_set_mode', {
            task_id,
            mode: 'on',
            host_session_id: 'S-other',
          });
          assert.equal(switched.error?.code, 'PRIVATE_TASK_OWNED');
          const still = (await s.call('intent_get_snapshot', { task_id })).result as Rec;
          assert.equal((still.snapshot as Rec).mode, 'private');

          // its claims live in memory only, and delete from there (defect 3)
          const held = String(((priv.result as Rec).claims as Rec[])[0]!.claim_id);
          const forgot = await s.call('intent_delete', {
            task_id,
            target: 'claim',
            claim_id: held,
            confirmation: `DELETE CLAIM ${held}`,
          });
          assert.equal(forgot.ok, true, JSON.stringify(forgot.error));
          const check = (forgot.result as { verification: Rec }).verification;
          assert.equal(check.view_clear, true);
          assert.equal(check.export_clear, true);
          const after = (await s.call('intent_get_snapshot', { task_id })).result as Rec;
          assert.doesNotMatch(String(after.compact_text), /PRIV-start-claim-5521/);
          const gone = await s.call('intent_delete', {
            task_id,
            target: 'task',
            confirmation: `DELETE TASK ${task_id}`,
          });
          assert.equal(gone.ok, true, JSON.stringify(gone.error));
          const emptied = (await s.call('intent_status', {})).result as Rec;
          assert.deepEqual(emptied.private_control, { tasks_in_memory: 0, claims_in_memory: 0 });

          const off = await s.call('intent_start_task', { mode: 'off' });
          assert.equal(off.ok, true, JSON.stringify(off.error));
          const offStatus = (await s.call('intent_status', { task_id: off.task_id })).result as Rec;
          assert.equal((offStatus.task as Rec).mode, 'off');
        } finally {
          await s.client.close();
        }
      }),
    ));
});
