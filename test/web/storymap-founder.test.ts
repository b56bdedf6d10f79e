import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storyMapModel } from '../../src/projections/storymap/stories.js';
import { storymap } from '../../src/app/storymap/index.js';
import { runs } from '../../src/app/storymap/runs.js';
import { csrfOf, getPage, postForm, withWeb, type Web } from './harness.js';
import { agentAtWork, photoBook } from './storymap-fixture.js';

const viewOf = async (web: Web, project_id: string, key: string) => {
  await web.app.waitFor(await web.app.log.head());
  const { id } = await storymap(web.app).reads.resolve(project_id, key);
  return (await storyMapModel.story.get(web.app.log.models, project_id, id))!;
};

/** The value of a hidden field of the form labelled `label`. */
const hidden = (page: string, label: string, name: string) => {
  const form = page.slice(page.indexOf(`aria-label="${label}"`));
  return new RegExp(`name="${name}" value="([^"]+)"`).exec(form)![1]!;
};

describe("web view: the founder's building-loop and run actions", () => {
  it('answer a hand-off, clear a blocker, request changes to a plan, approve it; refusals shown', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      await agentAtWork(web.app, project_id);
      const cookie = await web.signInAs();
      const path = `/projects/${project_id}/todo`;
      const page = await (await getPage(web, path, cookie)).text();
      for (const label of [
        'Mark the hand-off of PB-2 done',
        'Clear the blocker of PB-2',
        'Approve the plan of PB-2',
        'Request changes to the plan of PB-2',
      ])
        assert.match(page, new RegExp(`aria-label="${label}"`), label);
      const story = await (
        await getPage(web, `/projects/${project_id}/stories/PB-2`, cookie)
      ).text();
      assert.match(
        story,
        /<code>s1<\/code> Lay out the page grid/,
        'the plan, read from the build',
      );
      assert.match(story, /aria-label="Approve the plan of PB-2"/);
      assert.match(story, /Hand-off: Create the print shop account/);
      const csrf = csrfOf(page);
      const post = (fields: Record<string, string>) =>
        postForm(web, path, cookie, { csrf, ...fields });

      const handoff_id = hidden(page, 'Mark the hand-off of PB-2 done', 'handoff_id');
      const done = await post({ op: 'handoff', story_id: 'PB-2', handoff_id, note: 'made it' });
      assert.equal(done.status, 303);
      assert.match(done.headers.get('location')!, /done=hand-off\+done\+PB-2/);
      const again = await post({ op: 'handoff', story_id: 'PB-2', handoff_id, note: 'twice' });
      assert.equal(again.status, 422, 'a hand-off done already is refused by the decider');
      assert.match(await again.text(), /role="alert"/);

      const blocker_id = hidden(page, 'Clear the blocker of PB-2', 'blocker_id');
      assert.equal(
        (await post({ op: 'blocker', story_id: 'PB-2', blocker_id, decision: 'buttons' })).status,
        303,
      );
      const changes = await post({
        op: 'plan_changes',
        story_id: 'PB-2',
        points: 's2: keep the order on undo\nWhy not a list?\n',
      });
      assert.equal(changes.status, 303);
      let v = await viewOf(web, project_id, 'PB-2');
      assert.equal(v.build.handoffs[0]!.note, 'made it');
      assert.equal(v.build.blockers[0]!.decision, 'buttons');
      assert.equal(v.build.plan!.review, 'changes_requested');
      assert.deepEqual(
        v.build.feedback.map((f) => [f.step_id, f.text]),
        [
          ['s2', 'keep the order on undo'],
          [null, 'Why not a list?'],
        ],
      );
      const after = await (await getPage(web, path, cookie)).text();
      assert.doesNotMatch(after, /Mark the hand-off of PB-2 done/, 'answered: off the to-do');

      assert.equal((await post({ op: 'plan_approve', story_id: 'PB-2' })).status, 303);
      v = await viewOf(web, project_id, 'PB-2');
      assert.equal(v.build.plan!.review, 'approved');
      const none = await post({ op: 'plan_approve', story_id: 'PB-3' });
      assert.equal(none.status, 422, 'PB-3 has no plan to approve');
      assert.match(await none.text(), /role="alert"[^>]*>[^<]*plan/i);
    }));

  it('create a run, approve it, pause it; a refusal is a message; another origin is refused', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const path = `/projects/${project_id}/todo`;
      const csrf = csrfOf(await (await getPage(web, path, cookie)).text());
      const post = (fields: Record<string, string>, origin?: string) =>
        postForm(web, path, cookie, { csrf, ...fields }, origin);

      const unknown = await post({ op: 'run_create', title: 'First', stories: 'PB-2, PB-99' });
      assert.equal(unknown.status, 422);
      assert.match(await unknown.text(), /role="alert"[^>]*>[^<]*PB-99/);
      const stolen = await post(
        { op: 'run_create', title: 'x', stories: 'PB-2' },
        'http://attacker.example',
      );
      assert.equal(stolen.status, 403);
      assert.deepEqual(await runs(web.app).runsOf(project_id), [], 'nothing was created');

      const created = await post({
        op: 'run_create',
        title: 'First',
        stories: 'PB-2 PB-3',
        concurrency: '2',
        on_failure: 'continue',
      });
      assert.equal(created.status, 303);
      let page = await (await getPage(web, path, cookie)).text();
      assert.match(page, /R-1 First[\s\S]*draft[\s\S]*PB-2, PB-3/);
      assert.match(page, /aria-label="Approve R-1"/);
      assert.equal((await post({ op: 'run_approve', run: 'R-1' })).status, 303);
      assert.equal((await post({ op: 'run_pause', run: 'R-1', reason: 'lunch' })).status, 303);
      const [run] = await runs(web.app).runsOf(project_id);
      assert.deepEqual(
        [run!.status, run!.reason, run!.concurrency, run!.on_failure],
        ['paused', 'lunch', 2, 'continue'],
      );
      page = await (await getPage(web, path, cookie)).text();
      assert.match(page, /aria-label="Resume R-1"/);
      const twice = await post({ op: 'run_approve', run: 'R-1' });
      assert.equal(twice.status, 422, 'a paused run is not approved again: the decider says so');
      assert.match(
        await twice.text(),
        /role="alert"[^>]*>[^<]*R-1 is paused: a draft is approved once/,
      );
    }));
});
