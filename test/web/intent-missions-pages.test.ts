import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentSource, intentClient, openAt, userSource, withDir } from '../intent/harness.js';
import { withMissions } from '../missions/harness.js';
import { getPage, serveWeb } from './harness.js';

describe('web view: intent and missions pages', () => {
  it('an intent task: its snapshot with disputes and unknowns', () =>
    withDir((data) =>
      withDir(async (root) => {
        const app = await openAt(data);
        const c = await intentClient(app, [root]);
        const web = await serveWeb(app);
        try {
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
          const task = start.task_id!;
          const project = start.project_id!;
          const [first] = start.result!.claims as { claim_id: string }[];
          const inferred = await c.ok('intent_add_inference', {
            task_id: task,
            statement: 'The user prefers small commits',
            confidence: 0.6,
            source_ref: agentSource,
          });
          await c.ok('intent_mark_unknown', {
            task_id: task,
            statement: 'Which database to target',
            affects_decision: 'schema design',
            source_ref: agentSource,
          });
          await c.ok('intent_mark_dispute', {
            task_id: task,
            statement: 'Small commits break the API',
            claim_ids: [first!.claim_id, inferred.claim_id],
            source_ref: agentSource,
          });
          const cookie = await web.signInAs();
          const list = await (await getPage(web, `/projects/${project}/intent`, cookie)).text();
          assert.match(list, new RegExp(`>${task}</a`));
          const page = await getPage(web, `/projects/${project}/intent/${task}`, cookie);
          assert.equal(page.status, 200);
          const body = await page.text();
          assert.match(
            body,
            /Disputes \(1\)[\s\S]*Small commits break the API[\s\S]*disputes: Keep the public API stable/,
          );
          assert.match(body, /Unknowns \(1\)[\s\S]*Which database to target/);
          assert.match(body, /Current claims[\s\S]*Keep the public API stable/);
          assert.equal(
            (await getPage(web, `/projects/${project}/intent/nope`, cookie)).status,
            404,
          );
        } finally {
          await web.close();
          await c.close();
          await app.close();
        }
      }),
    ));

  it('a mission: leases, lanes and the pending owner code, for the local user only', () =>
    withMissions(async ({ app, call, dirs, ownerCode }) => {
      const web = await serveWeb(app);
      try {
        const at = { project_path: dirs.project };
        await call('hai_propose_next_step', { ...at, content: 'write csv.ts' });
        const held = await call('hai_accept_next_step', at);
        assert.equal(held.error, 'owner_gate_required');
        const events = await app.log.readAll({ after: 0, limit: 1000 });
        const project = events.find((e) => e.type === 'next_step.proposed')!.project_id;
        const cookie = await web.signInAs();
        assert.equal((await getPage(web, '/missions', cookie)).status, 200);
        const body = await (await getPage(web, `/missions/${project}`, cookie)).text();
        const code = await ownerCode();
        assert.match(body, new RegExp(`class="owner-code"[^>]*>${code}<`));
        assert.match(body, /No active mission/);
        const agent = await web.signInAs({ kind: 'actor', actor_id: 'agent-1' });
        assert.equal(
          (await getPage(web, `/missions/${project}`, agent)).status,
          404,
          'not a member',
        );
        const head = await app.log.head();
        const past = await (await getPage(web, `/missions/${project}?at=${head}`, cookie)).text();
        assert.doesNotMatch(past, new RegExp(code), 'codes are shown live only');
      } finally {
        await web.close();
      }
    }));
});
