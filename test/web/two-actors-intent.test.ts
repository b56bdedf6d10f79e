import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { olivia, sam, withSharedProject, type Shared } from '../hardening/intent-owners.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { intentRef } from '../../src/events/intent/index.js';
import { agentSource, intentClient } from '../intent/harness.js';
import { getPage, serveWeb } from './harness.js';

type World = Shared;

/** One project, Olivia's and Sam's intent tasks in it, and the web view over it. */
const withShared = (
  body: (app: App, web: Awaited<ReturnType<typeof serveWeb>>, w: World) => Promise<void>,
) =>
  withSharedProject(async (app, w) => {
    const web = await serveWeb(app);
    try {
      await body(app, web, w);
    } finally {
      await web.close();
    }
  });

describe('web view with two members of one project: an intent task is its owner’s', () => {
  it("Olivia's task list, task pages and timeline hold her task and none of Sam's", () =>
    withShared(async (_app, web, w) => {
      const cookie = await web.signInAs(olivia);
      const list = await (await getPage(web, `/projects/${w.project}/intent`, cookie)).text();
      assert.match(list, new RegExp(`>${w.oliviasTask}</a`));
      assert.ok(!list.includes(w.samsTask), "Sam's task is listed to Olivia");
      const own = await getPage(web, `/projects/${w.project}/intent/${w.oliviasTask}`, cookie);
      assert.match(await own.text(), /Olivia wants dark mode/);
      const other = await getPage(web, `/projects/${w.project}/intent/${w.samsTask}`, cookie);
      assert.equal(other.status, 404);
      assert.ok(!(await other.text()).includes('Sam keeps the API stable'));
      const timeline = await (await getPage(web, '/timeline', cookie)).text();
      // the timeline shows the log as it is: a task's stream is named by the task's ref
      assert.ok(timeline.includes(intentRef(w.oliviasTask)), 'her own task is on her timeline');
      assert.ok(!timeline.includes(intentRef(w.samsTask)), "Sam's task is on Olivia's timeline");
    }));

  it("the local user (SYSTEM) sees both tasks; Sam's live stream sends his task's events only", () =>
    withShared(async (app, web, w) => {
      const local = await web.signInAs();
      const list = await (await getPage(web, `/projects/${w.project}/intent`, local)).text();
      assert.ok(list.includes(w.oliviasTask) && list.includes(w.samsTask));

      const cookie = await web.signInAs(sam);
      const response = await fetch(`${web.base}/events?project=${w.project}`, {
        headers: { cookie: `intentlog_session=${cookie}` },
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      await reader.read(); // subscribed
      await sharedTaskWrite(app, w);
      let text = '';
      while (!text.includes('actor.registered')) text += (await reader.read()).value;
      await reader.cancel();
      assert.ok(!text.includes(intentRef(w.oliviasTask)), `Olivia's task reached Sam: ${text}`);
    }));
});

/**
 * Olivia's task gets a claim, then the project an event every member sees (Sam-mark's
 * registration), which the stream sends after Olivia's: once it is there, hers was passed over.
 */
const sharedTaskWrite = async (app: App, w: World) => {
  const c = await intentClient(app, [w.root], olivia);
  try {
    await c.ok('intent_add_inference', {
      task_id: w.oliviasTask,
      statement: 'Olivia prefers small commits',
      confidence: 0.6,
      source_ref: agentSource,
    });
  } finally {
    await c.close();
  }
  await app.projects.registerActor(
    { project_id: w.project, actor_id: 'sam-mark', role: 'REVIEWER' },
    { principal: SYSTEM },
  );
};
