import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csrfOf, getPage, postForm, withWeb } from './harness.js';
import { photoBook } from './storymap-fixture.js';
import { storymap } from '../../src/app/storymap/index.js';

const text = async (r: Response) => {
  const body = await r.text();
  return { status: r.status, body };
};

describe('web view: story-map pages', () => {
  it('the board: activities as columns, releases as rows, cards by status, cancelled apart', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const { status, body } = await text(
        await getPage(web, `/projects/${project_id}/storymap`, cookie),
      );
      assert.equal(status, 200);
      for (const col of ['Collect', 'Design', 'Buy'])
        assert.match(body, new RegExp(`<th scope="col">${col}</th>`));
      assert.match(body, /Release 1/);
      assert.match(body, /Release 2/);
      assert.match(body, /class="card st-done"[\s\S]*PB-1/);
      assert.match(body, /class="card st-todo"[\s\S]*PB-2/);
      const [board, cancelled] = body.split('id="cancelled-h"');
      assert.doesNotMatch(board!, /PB-4/, 'a cancelled story is not on the board');
      assert.match(cancelled!, /PB-4[\s\S]*not now/);
    }));

  it('the build order: a graph laid out by dagre beside the ordered list', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const { body } = await text(
        await getPage(web, `/projects/${project_id}/build-order`, cookie),
      );
      assert.match(body, /<svg[^>]*class="graph"/);
      assert.equal((body.match(/<g class="node/g) ?? []).length, 2, 'the two placed stories');
      assert.equal((body.match(/<path class="edge"/g) ?? []).length, 1, 'PB-1 → PB-2');
      const list = body.slice(body.indexOf('<ol class="build-order">'));
      assert.ok(list.indexOf('PB-1') < list.indexOf('PB-2'));
      assert.match(body, /Unsequenced \(1\)[\s\S]*PB-3/);
    }));

  it('the to-do: mark ready and approve through the deciders; a refusal is a message', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const path = `/projects/${project_id}/todo`;
      const page = (await text(await getPage(web, path, cookie))).body;
      assert.match(page, /Approve PB-1/);
      assert.match(page, /Mark PB-2 ready for dev/);
      const csrf = csrfOf(page);
      const ready = await postForm(web, path, cookie, {
        csrf,
        op: 'ready',
        story_id: 'PB-2',
        idempotency_key: 'k1',
      });
      assert.equal(ready.status, 303);
      const approve = await postForm(web, path, cookie, {
        csrf,
        op: 'approve',
        story_id: 'PB-1',
        idempotency_key: 'k2',
      });
      assert.equal(approve.status, 303);
      const story = (await text(await getPage(web, `/projects/${project_id}/stories/PB-1`, cookie)))
        .body;
      assert.match(story, /st-approved/);
      assert.match(story, /done → <strong>approved<\/strong> by system \(founder_cli\)/);
      const refused = await postForm(web, path, cookie, {
        csrf,
        op: 'approve',
        story_id: 'PB-3',
        idempotency_key: 'k3',
      });
      assert.equal(refused.status, 422);
      assert.match(
        await refused.text(),
        /role="alert"[^>]*>[^<]*PB-3 is todo; approved needs a story that is done/,
      );
      const seq = await postForm(web, path, cookie, {
        csrf,
        op: 'sequence',
        story_id: 'PB-3',
        build_sequence: 'x',
      });
      assert.equal(seq.status, 422, 'a sequence that is no number is refused before any command');
    }));

  it('a story: criteria, notes, history; an actor outside the project sees no story', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const { body } = await text(
        await getPage(web, `/projects/${project_id}/stories/pb-1`, cookie),
      );
      assert.match(body, /A photo shows in the book/);
      assert.match(body, /no result yet/);
      assert.match(body, /Uses the phone picker/);
      assert.match(body, /in_progress → <strong>done<\/strong>/);
      assert.equal(
        (await getPage(web, `/projects/${project_id}/stories/PB-99`, cookie)).status,
        404,
      );
      const stranger = await web.signInAs({ kind: 'actor', actor_id: 'mallory' });
      assert.equal((await getPage(web, `/projects/${project_id}/storymap`, stranger)).status, 404);
    }));

  it('as of a past position, the board shows the stories of then, read-only', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const head = await web.app.log.head();
      const events = await web.app.log.readAll({ after: 0, limit: head });
      const created = events.findLast((e) => e.type === 'story.created')!.global_position;
      const { body } = await text(
        await getPage(web, `/projects/${project_id}/todo?at=${created}`, cookie),
      );
      assert.match(body, /Shown as of global position/);
      assert.doesNotMatch(body, /<form method="post" class="action"/);
      const board = (
        await text(await getPage(web, `/projects/${project_id}/storymap?at=${created}`, cookie))
      ).body;
      assert.doesNotMatch(board, /card st-done/, 'nothing was built then');
      assert.match(board, /card st-todo/);
      assert.doesNotMatch(board, /data-live-/, 'a past board is never patched with live cards');
      // a card's link leads to its story as of the same position
      const boardPath = `/projects/${project_id}/storymap`;
      const link = /<li class="card [^"]+"><a href="([^"]+)">/.exec(board)![1]!;
      const story = new URL(link.replaceAll('&amp;', '&'), `http://x${boardPath}`);
      assert.equal(story.searchParams.get('at'), String(created));
      const storyPage = await getPage(web, story.pathname + story.search, cookie);
      assert.equal(storyPage.status, 200);
      assert.match(await storyPage.text(), /Shown as of global position/);
      const live = (await text(await getPage(web, boardPath, cookie))).body;
      assert.match(live, /data-live-project="[^"]+" data-live-patch="[^"]+"/);
    }));

  it("a release's progress over time: a chart with its numbers, counted like the board, as of then", () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const cookie = await web.signInAs();
      const path = `/projects/${project_id}/releases/1`;
      const { status, body } = await text(await getPage(web, path, cookie));
      assert.equal(status, 200);
      assert.match(
        body,
        /<svg[^>]*role="img"[^>]*aria-label="Release 1 [^"]*: 1 of 2 live stories built or approved\."/,
      );
      const rows = (await storymap(web.app).reads.rows(project_id)).filter(
        (r) => r.release === 1 && r.cancelled_at === null,
      );
      assert.equal(rows.length, 2, 'the board counts the same stories');
      const numbers = [
        ...body.matchAll(/<tr>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>/g),
      ].map((m) => m.slice(1).map(Number));
      assert.deepEqual(
        numbers.map(([, stories, built]) => [stories, built]),
        [
          [1, 0],
          [2, 0],
          [2, 1],
        ],
        'one point per change: PB-1 created, PB-2 created, PB-1 built',
      );
      const beforeBuilt = numbers[2]![0]! - 1;
      const past = (await text(await getPage(web, `${path}?at=${beforeBuilt}`, cookie))).body;
      assert.match(past, /0 of 2 live stories built or approved/);
      assert.match(past, /Shown as of global position/);
      const board = (await text(await getPage(web, `/projects/${project_id}/storymap`, cookie)))
        .body;
      assert.match(board, new RegExp(`href="${path}"[^>]*>Release 1</a`));
      assert.equal((await getPage(web, `/projects/${project_id}/releases/x`, cookie)).status, 404);
    }));
});
