import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { storymap } from '../../src/app/storymap/index.js';
import { storymapBuild } from '../../src/app/storymap/build.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { axeViolations, browserSkip, launch } from './browser.js';
import { withWeb } from './harness.js';
import { agentAtWork, photoBook } from './storymap-fixture.js';

const SHOTS = process.env.WEB_SCREENSHOTS; // a folder: also save screenshots of these pages

/** Marks the board's legend: a patch keeps it, a full refresh of the region drops it. */
const mark = (page: Page) =>
  page.evaluate(`document.querySelector('#live-region .legend').dataset.kept = 'yes'`);
const marked = (page: Page) =>
  page.evaluate(`document.querySelector('#live-region .legend').dataset.kept === 'yes'`);

describe(
  "the web view in Chromium: the founder's story-map actions",
  { skip: browserSkip() },
  () => {
    let browser: Browser;
    before(async () => (browser = await launch()));
    after(() => browser?.close());

    it('answer a hand-off, request changes, approve a plan, create/approve/pause a run; axe', () =>
      withWeb(async (web) => {
        const { project_id } = await photoBook(web.app);
        await agentAtWork(web.app, project_id);
        const todo = `${web.base}/projects/${project_id}/todo`;
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const tab = await context.newPage();
        await tab.goto(await web.link());
        await tab.goto(todo);
        assert.deepEqual(await axeViolations(tab), [], 'axe on the to-do with every form');
        if (SHOTS)
          await tab.screenshot({ path: `${SHOTS}/founder-todo-build.png`, fullPage: true });

        const handoff = tab.getByRole('form', { name: 'Mark the hand-off of PB-2 done' });
        await handoff.getByLabel(/What you did/).fill('Account made');
        await handoff.getByRole('button').click();
        await tab.getByRole('status').filter({ hasText: 'hand-off done PB-2' }).waitFor();

        const changes = tab.getByRole('form', { name: 'Request changes to the plan of PB-2' });
        await changes.getByLabel(/Feedback points/).fill('s1: use a 3x3 grid\nAdd undo');
        await changes.getByRole('button').click();
        await tab.getByRole('status').filter({ hasText: 'changes requested PB-2' }).waitFor();
        // the agent answers every point with a second version, which waits for review again
        const v = await storymap(web.app).reads.resolve(project_id, 'PB-2');
        await storymapBuild(web.app).savePlan(
          {
            project_id,
            story_id: 'PB-2',
            steps: [{ id: 's1', text: 'Lay out a 3x3 grid' }, { text: 'Add undo' }],
            responses: v.build.feedback.map((f) => ({ feedback_id: f.feedback_id, reply: 'done' })),
          },
          SYSTEM,
          'agent-1',
        );
        await tab.reload();
        await tab.getByRole('button', { name: 'Approve the plan of PB-2' }).click();
        await tab.getByRole('status').filter({ hasText: 'plan approved PB-2' }).waitFor();

        const create = tab.getByRole('form', { name: 'Create a draft run' });
        await create.getByLabel('Title').fill('Tuesday');
        await create.getByLabel(/Stories/).fill('PB-2 PB-99');
        await create.getByRole('button').click();
        assert.match(
          await tab.getByRole('alert').innerText(),
          /PB-99/,
          'the refusal, as a message',
        );
        const again = tab.getByRole('form', { name: 'Create a draft run' });
        await again.getByLabel('Title').fill('Tuesday');
        await again.getByLabel(/Stories/).fill('PB-2, PB-3');
        await again.getByRole('button').click();
        await tab.getByRole('status').filter({ hasText: 'run created' }).waitFor();
        await tab.getByRole('button', { name: 'Approve R-1' }).click();
        await tab.getByRole('status').filter({ hasText: 'approved R-1' }).waitFor();
        const pause = tab.getByRole('form', { name: 'Pause R-1' });
        await pause.getByLabel(/Why/).fill('waiting for prints');
        await pause.getByRole('button').click();
        await tab.getByRole('button', { name: 'Resume R-1' }).waitFor();
        assert.match(await tab.getByRole('row', { name: /R-1 Tuesday/ }).innerText(), /paused/);

        await tab.goto(`${web.base}/projects/${project_id}/stories/PB-2`);
        assert.match(await tab.locator('main').innerText(), /Blocker: Reorder on touch/);
        assert.deepEqual(await axeViolations(tab), [], 'axe on a story with its waiting forms');

        await tab.goto(`${web.base}/projects/${project_id}/storymap`);
        await tab.getByRole('link', { name: 'Release 1' }).click();
        const chart = tab.getByRole('img', { name: /^Release 1 .*built or approved/ });
        assert.match((await chart.getAttribute('aria-label'))!, /1 of 2 live stories/);
        await tab.getByText('The numbers').click();
        assert.ok((await tab.locator('details table tbody tr').count()) >= 3, 'its numbers');
        assert.deepEqual(await axeViolations(tab), [], 'axe on the release progress chart');
        if (SHOTS) await tab.screenshot({ path: `${SHOTS}/release-progress.png`, fullPage: true });
        await context.close();
      }));

    it('the board patches the cards an event touched, moves them, and falls back when it must', () =>
      withWeb(async (web) => {
        const { project_id } = await photoBook(web.app);
        const sm = storymap(web.app);
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const board = await context.newPage();
        await board.goto(await web.link());
        await board.goto(`${web.base}/projects/${project_id}/storymap`);
        const card = (key: string) => board.locator('li.card', { hasText: key });

        await mark(board);
        await sm.founderMark({ project_id, story_id: 'PB-2', to: 'ready_for_dev' }, SYSTEM);
        await board.locator('li.card.st-ready_for_dev', { hasText: 'PB-2' }).waitFor();
        assert.equal(await marked(board), true, 'a status change is a patch, not a refresh');

        const { id } = await sm.reads.resolve(project_id, 'PB-2');
        await sm.updateStories({ project_id, stories: [{ id, release: 2 }] }, SYSTEM);
        await board
          .locator('tr', { hasText: 'Release 2' })
          .locator('li.card', { hasText: 'PB-2' })
          .waitFor();
        assert.equal(await card('PB-2').count(), 1, 'moved, not copied');
        assert.equal(await marked(board), true, 'a move between cells is a patch too');
        assert.match(await board.locator('#board-summary').innerText(), /3\s+live stories/);

        await sm.cancel({ project_id, story_id: 'PB-2', reason: 'later' }, SYSTEM, true);
        await board.locator('.cancelled li', { hasText: 'PB-2' }).waitFor();
        assert.equal(await board.locator('table.board li.card', { hasText: 'PB-2' }).count(), 0);
        assert.equal(await marked(board), false, 'a card leaving the board: the whole region');

        await mark(board);
        await sm.createStories(
          { project_id, stories: [{ title: 'Gift wrap', activity: 'Wrap', release_order: 1 }] },
          SYSTEM,
        );
        await board.locator('th', { hasText: 'Wrap' }).waitFor();
        await card('Gift wrap').waitFor();
        assert.equal(await marked(board), false, 'a new story (a map event): the whole region');
        await context.close();
      }));
  },
);
