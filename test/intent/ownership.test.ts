import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { intentOf, legacyTaskId } from '../../src/app/intent/index.js';
import { agentSource, alice, bob, intentClient, openAt, userSource, withDir } from './harness.js';

describe('intent ownership and refused calls (in-memory MCP client, LevelDB store)', () => {
  it('a refused or failing call on a root no project holds appends nothing', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const c = await intentClient(app, [root], alice);
        try {
          const head = await app.log.head();
          const task_id = randomUUID();
          const refused = [
            await c.call('intent_get_snapshot', { task_id }),
            await c.call('intent_export', { task_id }),
            await c.call('intent_set_mode', { task_id, mode: 'off' }),
            await c.call('intent_add_inference', {
              task_id,
              statement: 'x',
              confidence: 0.5,
              source_ref: agentSource,
            }),
            await c.call('intent_start_task', { task_id }),
          ];
          for (const r of refused) {
            assert.equal(r.error?.code, 'TASK_NOT_FOUND', r.operation);
            assert.equal(r.project_id, null, 'no project was made for the root');
          }
          const failed = await c.call('intent_start_task', {
            claims: [
              { epistemic_status: 'inferred', statement: 'no confidence', source_ref: agentSource },
            ],
          });
          assert.equal(failed.ok, false);
          assert.equal(await app.log.head(), head, 'nothing was appended');
          assert.equal((await c.ok('intent_status')).project_known, false);

          // a start that succeeds binds the root
          const started = await c.call('intent_start_task');
          assert.equal(started.ok, true);
          assert.equal((await c.ok('intent_status')).project_known, true);
          const again = await c.call('intent_get_snapshot', { task_id: started.task_id });
          assert.equal(again.project_id, started.project_id);
        } finally {
          await c.close();
          await app.close();
        }
      }),
    ));

  it('a start made before ids named the principal: its owner’s retry still lands on it, no one else’s does', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const a = await intentClient(app, [root], alice);
        const b = await intentClient(app, [root], bob);
        try {
          const project_id = (await a.call('intent_start_task')).project_id!;
          // Given a task started by the first release: its id from project and request_id alone
          const legacy = legacyTaskId(project_id, 'r-old');
          const args = { task_id: legacy, host_session_id: undefined, claims: [] };
          await intentOf(app).writes.write({
            project_id,
            principal: alice,
            request_id: 'r-old',
            task_id: legacy,
            operation: 'intent_start_task',
            persist: true,
            args,
            command: () => ({
              type: 'StartTask',
              data: {
                project_id,
                task_id: legacy,
                associate_only: false,
                host_session_hash: null,
                claims: [],
                now: new Date().toISOString(),
              },
            }),
            respond: () => ({ created: true, claims: [] }),
          });
          await a.ok('intent_add_explicit', {
            task_id: legacy,
            statement: 'Alice said it before the upgrade',
            basis: 'direct_statement',
            source_ref: userSource,
          });
          // When alice retries that start, and bob uses the same request_id
          const retried = await a.ok('intent_start_task', { request_id: 'r-old' });
          const bobs = await b.ok('intent_start_task', { request_id: 'r-old' });
          // Then alice lands on her old task; bob gets a task of his own
          assert.equal(retried.task_id, legacy);
          assert.notEqual(bobs.task_id, legacy);
          assert.equal(bobs.created, true);
          const bobRead = await b.call('intent_get_snapshot', { task_id: legacy });
          assert.equal(bobRead.error?.code, 'TASK_NOT_FOUND');
          const aliceRead = await a.ok('intent_export', { task_id: legacy });
          assert.match(String(aliceRead.summary), /before the upgrade/);
        } finally {
          await a.close();
          await b.close();
          await app.close();
        }
      }),
    ));
});
