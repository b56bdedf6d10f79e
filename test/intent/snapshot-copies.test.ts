import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { intentSnapshotQueries } from '../../src/projections/intent/snapshot.js';
import { buildSnapshot } from '../../src/projections/intent/snapshot-view.js';
import { agentSource, userSource, withDir, withIntentClient } from './harness.js';

/**
 * `intent_get_snapshot` answers from a copy of the task's claims brought up to date from the
 * task's events since (issue 39). After every kind of change, the answer must be the snapshot
 * of the task's claims read whole from the read model; a deleted claim must leave it.
 */
const readWhole = async (app: App, project_id: string, task_id: string) => {
  const queries = intentSnapshotQueries(app.log.models);
  const head = (await queries.head(project_id, task_id))!;
  return buildSnapshot(head, await queries.claims(project_id, task_id), new Date().toISOString());
};

describe('intent snapshot copies', () => {
  it('answer as the claims read whole after each add, replace, dispute, invalidate and delete', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const started = await c.call('intent_start_task', {});
          const task_id = started.task_id!;
          const p = started.project_id!;
          const same = async (what: string) => {
            const { snapshot } = await c.ok('intent_get_snapshot', { task_id });
            assert.deepEqual(snapshot, await readWhole(app, p, task_id), what);
            return JSON.stringify(snapshot);
          };
          await same('empty');
          const ids: string[] = [];
          for (let i = 0; i < 6; i++) {
            const added = await c.ok('intent_add_inference', {
              task_id,
              statement: `inference ${i}`,
              confidence: 0.5,
              source_ref: agentSource,
            });
            ids.push(String(added.claim_id));
            await same(`after add ${i}`);
          }
          const explicit = await c.ok('intent_add_explicit', {
            task_id,
            statement: 'the user said so',
            basis: 'direct_statement',
            source_ref: userSource,
          });
          const dispute = await c.ok('intent_mark_dispute', {
            task_id,
            statement: 'two of them disagree',
            claim_ids: [ids[0], ids[1], ids[2]],
            source_ref: agentSource,
          });
          await same('after a dispute');
          await c.ok('intent_replace_claim', {
            task_id,
            supersedes: [ids[0]],
            claim: {
              epistemic_status: 'inferred',
              confidence: 0.8,
              statement: 'inference 0, corrected',
              source_ref: agentSource,
            },
          });
          await same('after a replacement: the dispute is over an inactive claim');
          await c.ok('intent_invalidate', {
            task_id,
            claim_id: explicit.claim_id,
            reason: 'the user took it back',
            source_ref: userSource,
          });
          await same('after an invalidation');
          for (const claim_id of [ids[1], ids[3]]) {
            await c.ok('intent_delete', {
              task_id,
              claim_id,
              confirmation: `DELETE CLAIM ${claim_id}`,
            });
            const snap = await same(`after deleting ${claim_id}`);
            assert.ok(!snap.includes(claim_id!), 'a deleted claim is in no snapshot');
          }
          assert.ok((await same('at the end')).includes(String(dispute.claim_id)));
          await c.ok('intent_set_mode', { task_id, mode: 'off' });
          await c.ok('intent_set_mode', { task_id, mode: 'on' });
          await same('after the mode went off and on again');
        });
      }),
    ));
});
