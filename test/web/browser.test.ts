import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { governance } from '../../src/app/governance/index.js';
import { P, po } from '../governance/fixture.js';
import { axeViolations, browserSkip, launch } from './browser.js';
import { actor, withWeb } from './harness.js';
import { photoBook } from './storymap-fixture.js';

const GOV = `/projects/${P}/governance`;
const PAGES = ['/', `/projects/${P}`, GOV, `/projects/${P}/progress`, '/timeline', '/audit'];
const SHOTS = process.env.WEB_SCREENSHOTS; // a folder: also save screenshots of the main pages

describe('the web view in Chromium', { skip: browserSkip() }, () => {
  let browser: Browser;
  before(async () => (browser = await launch()));
  after(() => browser?.close());

  it('sign in with the printed link, act, see a second tab update, filter, travel in time', () =>
    withWeb(async (web) => {
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(await web.link(actor(po.actor_id)));
      assert.equal(new URL(tab.url()).pathname, '/');
      assert.match(await tab.locator('.who').innerText(), /Signed in as\s+olivia/);

      for (const path of PAGES) {
        await tab.goto(web.base + path);
        assert.deepEqual(await axeViolations(tab), [], `axe on ${path}`);
      }

      const other = await context.newPage();
      await other.goto(web.base + GOV);
      await tab.goto(web.base + GOV);
      const issue = tab.getByRole('form', { name: 'Issue work package' });
      await issue.getByLabel('Id').fill('WP-9');
      await issue.getByLabel('Title').fill('Ship the web view');
      await issue.getByRole('button', { name: 'Issue work package' }).click();
      await tab.getByRole('status').filter({ hasText: 'issue_work_package' }).waitFor();
      await other.getByRole('rowheader', { name: 'WP-9' }).waitFor({ timeout: 5000 });
      assert.match(await other.getByRole('heading', { name: /^OPEN/ }).innerText(), /OPEN \(1\)/);

      await tab.getByRole('button', { name: 'Close gate of WP-9' }).count(); // none while OPEN
      await tab.getByRole('button', { name: 'Claim WP-9' }).click();
      assert.match(await tab.getByRole('alert').innerText(), /forbidden: PO may not/);

      await tab.goto(`${web.base}/timeline`);
      await tab.getByLabel('Event type').selectOption('work_package.issued');
      await tab.getByRole('button', { name: 'Filter' }).click();
      await tab.waitForURL(/type=work_package.issued/);
      const types = await tab.locator('#timeline-rows code').allInnerTexts();
      assert.deepEqual(types, ['work_package.issued']);
      await governance(web.app).issueWorkPackage(
        { project_id: P, work_package_id: 'WP-10', title: 'Live' },
        { principal: actor(po.actor_id), idempotencyKey: 'live' },
      );
      await tab.locator('#timeline-rows tr').nth(1).waitFor({ timeout: 5000 });

      const issuedAt = Number(
        await tab.locator('#timeline-rows tr').last().locator('td').first().innerText(),
      );
      await tab.getByLabel('As of position').fill(String(issuedAt - 1));
      await tab.waitForURL(new RegExp(`at=${issuedAt - 1}`));
      assert.equal(await tab.locator('#timeline-rows tr').count(), 0, 'nothing issued before it');
      await tab.getByRole('link', { name: 'Back to live' }).waitFor();

      if (SHOTS) {
        await tab.goto(`${web.base}/timeline`);
        await tab.screenshot({ path: `${SHOTS}/timeline.png` });
        await tab.goto(web.base + GOV);
        await tab.screenshot({ path: `${SHOTS}/governance.png` });
        await tab.goto(`${web.base}${GOV}?at=${issuedAt}`);
        await tab.screenshot({ path: `${SHOTS}/governance-as-of.png` });
        await tab.goto(`${web.base}/projects/${P}/progress`);
        await tab.screenshot({ path: `${SHOTS}/progress.png` });
      }

      const [cookie] = await context.cookies();
      assert.equal(cookie?.httpOnly, true);
      assert.equal(cookie?.sameSite, 'Strict');
      const replay = await fetch(`${web.base}${GOV}`, {
        method: 'POST',
        headers: {
          cookie: `${cookie!.name}=${cookie!.value}`,
          origin: 'http://attacker.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'op=issue&work_package_id=WP-66&title=stolen',
      });
      assert.equal(replay.status, 403, 'a stolen cookie from another origin is refused');
      await context.close();
    }));

  it('story map: mark ready and approve on the to-do, the board in a second tab updates; axe', () =>
    withWeb(async (web) => {
      const { project_id } = await photoBook(web.app);
      const root = `/projects/${project_id}`;
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const tab = await context.newPage();
      await tab.goto(await web.link());
      const pages = [
        `${root}/storymap`,
        `${root}/build-order`,
        `${root}/todo`,
        `${root}/stories/PB-1`,
        `${root}/intent`,
        '/missions',
      ];
      for (const path of pages) {
        await tab.goto(web.base + path);
        assert.deepEqual(await axeViolations(tab), [], `axe on ${path}`);
      }
      const board = await context.newPage();
      await board.goto(`${web.base}${root}/storymap`);
      await tab.goto(`${web.base}${root}/todo`);
      await tab.getByRole('button', { name: 'Mark PB-2 ready for dev' }).click();
      await tab.getByRole('status').filter({ hasText: 'marked ready PB-2' }).waitFor();
      await board
        .locator('li.card.st-ready_for_dev', { hasText: 'PB-2' })
        .waitFor({ timeout: 5000 });
      await tab.getByRole('button', { name: 'Approve PB-1' }).click();
      await tab.getByRole('status').filter({ hasText: 'approved PB-1' }).waitFor();
      await board.locator('li.card.st-approved', { hasText: 'PB-1' }).waitFor({ timeout: 5000 });
      await tab.getByRole('button', { name: 'Approve PB-1' }).count(); // gone once approved
      if (SHOTS) {
        for (const [name, path] of [
          ['storymap-board', `${root}/storymap`],
          ['build-order', `${root}/build-order`],
          ['founder-todo', `${root}/todo`],
          ['story', `${root}/stories/PB-1`],
        ] as const) {
          await tab.goto(web.base + path);
          await tab.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
        }
      }
      await context.close();
    }));
});
