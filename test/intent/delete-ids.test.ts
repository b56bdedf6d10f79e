import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { runLightHook } from '../../src/app/intent/hook-light.js';
import { spooled } from '../../src/app/intent/hook-spool.js';
import { legacyTaskStream, taskStream } from '../../src/app/intent/writes.js';
import { intentRef, legacyClaimSubject } from '../../src/events/intent/index.js';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { claim, NOW } from './fixture.js';
import { verifyAudit } from './audit.js';
import { agentSource, startTaskAt, userSource, withDir, withIntentClient } from './harness.js';

/**
 * Issue 33: after `intent_delete` answered, no file of the data dir holds a deleted claim's id
 * (nor, after a task delete, any of the task's claim ids): not a tombstone, a key name, a seal
 * subject, a read-model key or an idempotency record, in whatever LevelDB file.
 */

/** An id as the client saw it, and the other ways its bytes could have been written. */
const formsOf = (id: string): string[] => {
  const hex = id.replace(/-/g, '');
  return [
    id,
    hex,
    Buffer.from(id).toString('base64'),
    Buffer.from(id).toString('base64url'),
    ...(/^[0-9a-f]{32}$/.test(hex)
      ? [Buffer.from(hex, 'hex').toString('latin1'), Buffer.from(hex, 'hex').toString('base64')]
      : []),
  ];
};

const explicit = (task_id: string, statement: string, request_id?: string) => ({
  task_id,
  statement,
  basis: 'direct_statement',
  source_ref: userSource,
  ...(request_id ? { request_id } : {}),
});

type Client = Parameters<Parameters<typeof withIntentClient>[2]>[0];

/** A task with claims that refer to each other: a dispute, a replacement, an invalidation. */
const populate = async (c: Client) => {
  const started = await c.ok('intent_start_task', {
    request_id: 'start-ids',
    claims: [
      {
        epistemic_status: 'explicit',
        basis: 'direct_statement',
        statement: 'Keep the CLI flags backwards compatible',
        source_ref: userSource,
      },
    ],
  });
  const task_id = String(started.task_id);
  const first = String((started.claims as unknown as { claim_id: string }[])[0]!.claim_id);
  const a = String(
    (await c.ok('intent_add_explicit', explicit(task_id, 'Docs in English', 'r-a'))).claim_id,
  );
  const b = String(
    (
      await c.ok('intent_add_inference', {
        task_id,
        statement: 'The user prefers small commits',
        confidence: 0.6,
        source_ref: agentSource,
      })
    ).claim_id,
  );
  const dispute = String(
    (
      await c.ok('intent_mark_dispute', {
        task_id,
        request_id: 'r-dispute',
        statement: 'Flags vs small commits',
        claim_ids: [first, b],
        source_ref: agentSource,
      })
    ).claim_id,
  );
  const replacement = String(
    (
      await c.ok('intent_replace_claim', {
        task_id,
        supersedes: [a],
        claim: {
          epistemic_status: 'explicit',
          basis: 'direct_statement',
          statement: 'Docs in British English',
          source_ref: userSource,
        },
      })
    ).claim_id,
  );
  await c.ok('intent_invalidate', {
    task_id,
    claim_id: replacement,
    reason: 'the user withdrew it',
    source_ref: userSource,
  });
  return { task_id, first, a, b, dispute, replacement };
};

const holding = (data: string, ids: string[]) => filesHolding(data, ids.flatMap(formsOf));

describe('intent delete leaves no id on disk (LevelDB)', () => {
  it('a deleted claim id is in no file, after a restart, with the rest of the task intact', () =>
    withDir((data) =>
      withDir(async (root) => {
        const ids = await withIntentClient(data, [root], populate);
        // the search finds what is stored (the task's ref names its stream), so the checks below
        // can fail; the task's id itself is stored only sealed
        assert.notDeepEqual(await filesHolding(data, [intentRef(ids.task_id)]), []);
        assert.deepEqual(await holding(data, [ids.task_id]), []);
        await withIntentClient(data, [root], async (c) => {
          const { task_id, first, b, dispute } = ids;
          for (const [claim_id, request_id] of [
            [first, 'del-1'],
            [b, undefined],
          ] as const) {
            const deleted = await c.ok('intent_delete', {
              task_id,
              claim_id,
              confirmation: `DELETE CLAIM ${claim_id}`,
              ...(request_id ? { request_id } : {}),
            });
            assert.deepEqual(deleted.deleted_claims, [claim_id]);
          }
          const snap = JSON.stringify(await c.ok('intent_get_snapshot', { task_id }));
          assert.ok(snap.includes(dispute), 'the dispute is still there');
          assert.ok(
            !snap.includes('The user prefers small commits'),
            'the deleted inference is gone',
          );
          const again = await c.call('intent_delete', {
            task_id,
            claim_id: first,
            confirmation: `DELETE CLAIM ${first}`,
          });
          assert.equal(again.error?.code, 'CLAIM_NOT_FOUND');
        });
        assert.deepEqual(await holding(data, [ids.first, ids.b]), []);
        await verifyAudit(data);
      }),
    ));
});

// Issue 33's second half: a task's stream is named by its ref, its events are sealed under its
// own subject (or a claim's), its tombstones name it by ref and the snapshot keys it by ref.
describe('intent task delete leaves no task id on disk (LevelDB)', () => {
  it('after a task delete neither the task id nor a claim id is in any file, also after a restart', () =>
    withDir((data) =>
      withDir(async (root) => {
        const ids = await withIntentClient(data, [root], populate); // started with a request_id
        await withIntentClient(data, [root], async (c) => {
          await c.ok('intent_delete', {
            task_id: ids.task_id,
            confirmation: `DELETE TASK ${ids.task_id}`,
            request_id: 'del-task',
          });
        });
        assert.deepEqual(await holding(data, Object.values(ids)), []);
        // a restart replays, rebuilds and rewrites what it derives: still none
        await withIntentClient(data, [root], async (c) => {
          const again = await c.call('intent_get_snapshot', { task_id: ids.task_id });
          assert.equal(again.error?.code, 'TASK_DELETED');
        });
        assert.deepEqual(await holding(data, Object.values(ids)), []);
        await verifyAudit(data);
      }),
    ));
  it('Hooks ran on the task with no writer: after its delete no file holds its id, view and spool included', () =>
    withDir((data) =>
      withDir(async (root) => {
        const session = 'session-hooks-then-delete';
        const statement = 'HOOKED-keep-the-public-api-stable-5521';
        const task_id = await startTaskAt(data, root, session, [
          {
            epistemic_status: 'explicit',
            basis: 'direct_statement',
            statement,
            source_ref: userSource,
          },
        ]);
        // no writer runs: a compaction, then session-start serves the recovery note from the view
        // file (its `served` record names the task until folded), user-prompt spools a candidate
        runLightHook(data, 'post-compact', { cwd: root, session_id: session });
        const started = runLightHook(data, 'session-start', { cwd: root, session_id: session });
        assert.ok(JSON.stringify(started).includes(task_id), 'the view names the task');
        runLightHook(data, 'user-prompt', { cwd: root, session_id: session, prompt: 'go on' });
        assert.ok(spooled(data).length >= 2);
        // until folded, the `served` record names the task: the search below can find it
        assert.notDeepEqual(await holding(data, [task_id]), []);
        await withIntentClient(data, [root], async (c) => {
          // opening folded the spool; the task's candidate is in the log
          const { candidates } = await c.ok('intent_list_candidates', { task_id });
          assert.equal((candidates as unknown as unknown[]).length, 1);
          await c.ok('intent_delete', { task_id, confirmation: `DELETE TASK ${task_id}` });
        });
        assert.deepEqual(spooled(data), []);
        assert.deepEqual(await holding(data, [task_id]), []);
        assert.deepEqual(await filesHolding(data, [statement]), []);
        const after = runLightHook(data, 'session-start', { cwd: root, session_id: session });
        assert.ok(!JSON.stringify(after).includes(task_id), 'the view no longer names the task');
        await verifyAudit(data);
      }),
    ));
});

describe('claims written before refs (legacy subjects)', () => {
  it('a task started before refs (its stream named by id) still reads, writes and deletes', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c, app) => {
          const project_id = String((await c.call('intent_start_task')).project_id);
          const task_id = randomUUID();
          // what a data dir written before holds: the stream named by the id, nothing sealed
          await app.log.appendToStream(legacyTaskStream(project_id, task_id), [
            {
              type: 'intent.task_started',
              data: { project_id, task_id, host_session_hash: null, started_at: NOW },
            },
          ]);
          await c.ok('intent_add_explicit', explicit(task_id, 'LEGACY-TASK-keep-it-short'));
          const snap = JSON.stringify(await c.ok('intent_get_snapshot', { task_id }));
          assert.ok(snap.includes('LEGACY-TASK-keep-it-short'));
          await c.ok('intent_delete', { task_id, confirmation: `DELETE TASK ${task_id}` });
          const gone = await c.call('intent_get_snapshot', { task_id });
          assert.equal(gone.error?.code, 'TASK_DELETED');
        });
        assert.deepEqual(await filesHolding(data, ['LEGACY-TASK-keep-it-short']), []);
        await verifyAudit(data);
      }),
    ));

  it('still read, and a delete shreds the legacy key: no statement left, the audit passes', () =>
    withDir((data) =>
      withDir(async (root) => {
        const doomed = 'LEGACY-the-user-once-wanted-codename-borealis-40917';
        const kept = 'LEGACY-the-user-wants-tabs-not-spaces-11873';
        await withIntentClient(data, [root], async (c, app) => {
          const started = await c.call('intent_start_task');
          const task_id = String(started.task_id);
          const project_id = String(started.project_id);
          // what a data dir written before refs holds: claims sealed under `intent-claim:<id>`
          const legacy = (claim_id: string, statement: string) => ({
            type: 'intent.claim_added',
            data: {
              project_id,
              task_id,
              claim: { ...claim(claim_id, 'explicit'), statement, valid_from: NOW },
            },
            metadata: { seal: legacyClaimSubject(claim_id) },
          });
          const doomedId = randomUUID();
          await app.log.appendToStream(taskStream(project_id, task_id), [
            legacy(doomedId, doomed),
            legacy(randomUUID(), kept),
          ]);
          const before = JSON.stringify(await c.ok('intent_get_snapshot', { task_id }));
          assert.ok(before.includes(doomed) && before.includes(kept));
          const deleted = await c.ok('intent_delete', {
            task_id,
            claim_id: doomedId,
            confirmation: `DELETE CLAIM ${doomedId}`,
          });
          assert.equal(
            (deleted.verification as unknown as { bytes_clear: boolean }).bytes_clear,
            true,
          );
          const after = JSON.stringify(await c.ok('intent_get_snapshot', { task_id }));
          assert.ok(!after.includes(doomed) && after.includes(kept));
        });
        assert.deepEqual(await filesHolding(data, [doomed]), []);
        await verifyAudit(data);
      }),
    ));
});
