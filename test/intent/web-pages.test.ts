import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { governance } from '../../src/app/governance/index.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { getPage, serveWeb } from '../web/harness.js';
import { alice, bob, intentClient, openAt, userSource, withDir } from './harness.js';

describe('intent pages of the web view: a task is its starter’s there too', () => {
  it('a member of the project sees only the tasks they started; SYSTEM sees every one', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const a = await intentClient(app, [root], alice);
        const web = await serveWeb(app);
        try {
          // Given alice's task in a project where alice and bob are both members
          const start = await a.call('intent_start_task', {
            claims: [
              {
                epistemic_status: 'explicit',
                basis: 'direct_statement',
                statement: 'Alice keeps this to herself',
                source_ref: userSource,
              },
            ],
          });
          const [project, task] = [start.project_id!, start.task_id!];
          for (const actor_id of ['alice', 'bob'])
            await governance(app).registerActor(
              { project_id: project, actor_id, role: 'IMPLEMENTER' },
              { principal: SYSTEM, idempotencyKey: `member-${actor_id}` },
            );
          const list = `/projects/${project}/intent`;
          const page = `/projects/${project}/intent/${task}`;
          // When bob looks, Then her task is not there
          const asBob = await web.signInAs(bob);
          assert.doesNotMatch(await (await getPage(web, list, asBob)).text(), new RegExp(task));
          const bobs = await getPage(web, page, asBob);
          assert.equal(bobs.status, 404);
          assert.doesNotMatch(await bobs.text(), /keeps this/);
          // And alice and SYSTEM see it
          for (const cookie of [await web.signInAs(alice), await web.signInAs()]) {
            assert.match(await (await getPage(web, list, cookie)).text(), new RegExp(task));
            assert.match(await (await getPage(web, page, cookie)).text(), /keeps this/);
          }
        } finally {
          await web.close();
          await a.close();
          await app.close();
        }
      }),
    ));
});
