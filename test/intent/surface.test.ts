import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { agentSource, userSource, withDir, withIntentClient } from './harness.js';

describe('intent surface (in-memory MCP client, LevelDB store)', () => {
  it('runs the claim loop: start, add each kind, replace, invalidate, snapshot', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const start = await c.call('intent_start_task', {
            claims: [
              {
                epistemic_status: 'explicit',
                basis: 'direct_statement',
                statement: 'Keep the public API stable',
                source_ref: userSource,
              },
            ],
          });
          assert.equal(start.ok, true);
          const task_id = start.task_id!;
          assert.equal(start.result!.task_id, task_id);
          assert.match(start.project_id!, /^intent-/);
          const [first] = start.result!.claims as { claim_id: string }[];

          const inferred = await c.ok('intent_add_inference', {
            task_id,
            statement: 'The user prefers small commits',
            confidence: 0.6,
            source_ref: agentSource,
          });
          await c.ok('intent_add_evidence', {
            task_id,
            statement: 'The test suite passes with token=supersecretvalue123',
            source_ref: { kind: 'tool_result', sha256: 'a'.repeat(64) },
          });
          await c.ok('intent_mark_unknown', {
            task_id,
            statement: 'Which database to target',
            affects_decision: 'schema design',
            source_ref: agentSource,
          });
          await c.ok('intent_mark_dispute', {
            task_id,
            statement: 'API stability vs small commits',
            claim_ids: [first!.claim_id, inferred.claim_id],
            source_ref: agentSource,
          });

          // an inference cannot displace the user's word
          const refused = await c.call('intent_replace_claim', {
            task_id,
            supersedes: [first!.claim_id],
            claim: {
              epistemic_status: 'inferred',
              confidence: 0.9,
              statement: 'The API may change',
              source_ref: agentSource,
            },
          });
          assert.equal(refused.ok, false);
          assert.equal(refused.error!.code, 'AUTHORITY_VIOLATION');
          assert.equal(refused.error!.details.retryable, false);
          assert.equal(refused.error!.retryable, false, 'retryable at the top too (intent-loop)');
          assert.equal(refused.task_id, task_id);

          await c.ok('intent_invalidate', {
            task_id,
            claim_id: inferred.claim_id,
            reason: 'the user said otherwise',
            source_ref: userSource,
          });

          const { snapshot } = await c.ok('intent_get_snapshot', { task_id });
          const snap = snapshot as unknown as {
            current: { statement: string; epistemic_status: string }[];
            unknowns: unknown[];
            disputes: { disputed_claims: { life: string }[] }[];
            stale_warnings: { reason: string }[];
          };
          assert.deepEqual(
            snap.current.map((l) => l.epistemic_status),
            ['explicit', 'evidence'],
          );
          assert.ok(snap.current[1]!.statement.includes('[REDACTED:assignment]'));
          assert.equal(snap.unknowns.length, 1);
          assert.deepEqual(
            snap.disputes[0]!.disputed_claims.map((d) => d.life),
            ['active', 'invalidated'],
          );
          assert.deepEqual(
            snap.stale_warnings.map((w) => w.reason),
            ['dispute_over_inactive_claim'],
          );
        });
      }),
    ));

  it('dedupes a request_id and refuses its reuse with other arguments', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const { task_id } = await c.ok('intent_start_task', { request_id: 'start-1' });
          const again = await c.ok('intent_start_task', { request_id: 'start-1' });
          assert.equal(again.task_id, task_id, 'a retried start lands on the same task');
          const args = {
            task_id,
            request_id: 'r-1',
            statement: 'Ship on Friday',
            basis: 'direct_statement',
            source_ref: userSource,
          };
          const one = await c.ok('intent_add_explicit', args);
          const two = await c.call('intent_add_explicit', args);
          assert.equal((two.result as { claim_id: string }).claim_id, one.claim_id);
          const reused = await c.call('intent_add_explicit', { ...args, statement: 'Ship Monday' });
          assert.equal(reused.error!.code, 'REQUEST_ID_REUSED');
          const snap = (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as {
            active_claims: number;
          };
          assert.equal(snap.active_claims, 1);
        });
      }),
    ));

  it('intent_set_mode dedupes a request_id like every task-scoped mutation', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const { task_id } = await c.ok('intent_start_task');
          const off = { task_id, mode: 'off', request_id: 'mode-1' };
          const first = await c.call('intent_set_mode', off);
          assert.equal(first.ok, true, JSON.stringify(first.error));
          const head = await app.log.head();
          const again = await c.call('intent_set_mode', off);
          assert.equal(again.ok, true);
          assert.equal((again as { replayed?: boolean }).replayed, true);
          const reused = await c.call('intent_set_mode', { ...off, mode: 'on' });
          assert.equal(reused.error?.code, 'REQUEST_ID_REUSED');
          assert.equal(await app.log.head(), head, 'neither the replay nor the reuse appended');
        });
      }),
    ));

  it('JSON and quoted credentials never reach the ledger', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const { task_id } = await c.ok('intent_start_task');
          const added = await c.ok('intent_add_explicit', {
            task_id,
            statement:
              'Use {"password":"supersecretvalue","api_key":"api-secret-value"} for staging',
            basis: 'direct_statement',
            source_ref: userSource,
          });
          assert.equal(added.redactions, 2);
        });
        assert.deepEqual(await filesHolding(data, ['supersecretvalue', 'api-secret-value']), []);
      }),
    ));

  it('refuses tool output as explicit and unknown keys, before writing', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const { task_id } = await c.ok('intent_start_task');
          const head = await app.log.head();
          const tool = await c.call('intent_add_explicit', {
            task_id,
            statement: 'x is required',
            basis: 'direct_statement',
            source_ref: { kind: 'tool_result', event_id: 't' },
          });
          assert.equal(tool.error!.code, 'INVALID_SOURCE');
          const extra = await c.call('intent_get_snapshot', { task_id, surprise: 1 });
          assert.equal(extra.error!.code, 'INVALID_ARGUMENT');
          assert.equal(await app.log.head(), head);
        });
      }),
    ));

  it('status creates no storage; a snapshot is byte-identical live and rebuilt', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const before = await app.log.head();
          const status = await c.ok('intent_status');
          assert.equal(status.project_known, false);
          assert.equal(await app.log.head(), before, 'intent_status wrote nothing');

          const task_id = String((await c.ok('intent_start_task')).task_id);
          for (const statement of ['first wish', 'second wish', 'third wish'])
            await c.ok('intent_add_inference', {
              task_id,
              statement,
              confidence: 0.5,
              source_ref: agentSource,
            });
          const live = JSON.stringify(await c.ok('intent_get_snapshot', { task_id }));
          assert.equal(JSON.stringify(await c.ok('intent_get_snapshot', { task_id })), live);
          const stored = async () =>
            JSON.stringify(await app.log.models.range({ prefix: 'intent.snapshot/' }));
          const liveModel = await stored();
          await app.projections.rebuild(['intent.snapshot']);
          assert.equal(await stored(), liveModel, 'the rebuilt read model is the live one');
        });
      }),
    ));

  it('promotes a long-term inference only after three distinct tasks and the confirmation', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const wish = 'Prefer pnpm over npm in every repository';
          const tasks: { task_id: string; claim_id: string }[] = [];
          const confirm = (t: { task_id: string; claim_id: string }) =>
            c.call('intent_add_explicit', {
              task_id: t.task_id,
              statement: wish,
              basis: 'confirmed_candidate',
              confirms_claim_id: t.claim_id,
              source_ref: userSource,
            });
          for (let i = 0; i < 3; i++) {
            const task_id = String((await c.ok('intent_start_task')).task_id);
            const added = await c.ok('intent_add_inference', {
              task_id,
              statement: wish,
              confidence: 0.8,
              scope: 'long_term',
              source_ref: agentSource,
            });
            assert.equal(added.candidate, true, 'a long-term inference waits as a candidate');
            tasks.push({ task_id, claim_id: String(added.claim_id) });
            if (i === 1) {
              const early = await confirm(tasks[0]!);
              assert.equal(
                early.error?.code,
                'LONG_TERM_CONFIRMATION_REQUIRED',
                'two tasks are not enough',
              );
            }
          }
          const listed = await c.ok('intent_list_candidates', { task_id: tasks[0]!.task_id });
          assert.equal(
            (listed.candidates as unknown as unknown[]).length,
            1,
            'listing never promotes',
          );
          const promoted = await confirm(tasks[0]!);
          assert.equal(promoted.ok, true, JSON.stringify(promoted.error));
          const after = await c.ok('intent_list_candidates', { task_id: tasks[0]!.task_id });
          assert.deepEqual(after.candidates, []);
        });
      }),
    ));
});
