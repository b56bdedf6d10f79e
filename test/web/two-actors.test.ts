import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { governance } from '../../src/app/governance/index.js';
import { storymap } from '../../src/app/storymap/index.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { P, po } from '../governance/fixture.js';
import { actor, csrfOf, getPage, postForm, withWeb, type Web } from './harness.js';
import { VISION } from './storymap-fixture.js';

/**
 * Two actors on one server, each walking every page of the other's project (web.md, "Pages"):
 * Olivia, P's PO (and a governance PO of Sam's map, with no story-map role there), and Sam, the
 * owner of the story map S and no member of P. Vic holds a story-map role in P and nothing else.
 */
const sam = actor('sam');
const olivia = actor(po.actor_id);
const vic = actor('vic');

const world = async (web: Web) => {
  const g = governance(web.app);
  await g.issueWorkPackage(
    { project_id: P, work_package_id: 'WP-SECRET', title: 'Acme secret package' },
    { principal: olivia, idempotencyKey: 'wp' },
  );
  await web.app.projects.registerActor(
    { project_id: P, actor_id: 'vic', surface: 'storymap', role: 'viewer' },
    { principal: SYSTEM },
  );
  const sm = storymap(web.app);
  const { project_id: S } = await sm.createProject(
    { name: 'Hidden Book', idea: 'A book nobody else reads', client: null },
    sam,
  );
  await sm.setVision({ project_id: S, answers: VISION }, sam);
  await sm.createStories(
    { project_id: S, stories: [{ title: 'Hidden story', acceptance_criteria: ['It hides'] }] },
    sam,
  );
  await web.app.projects.registerActor(
    { project_id: S, actor_id: po.actor_id, role: 'PO' },
    { principal: SYSTEM },
  );
  return { S };
};

const GOVERNANCE_PAGES = (p: string) => [
  `/projects/${p}`,
  `/projects/${p}/governance`,
  `/projects/${p}/progress`,
  `/projects/${p}/governance?at=3`,
];
const STORYMAP_PAGES = (s: string) => [
  `/projects/${s}/storymap`,
  `/projects/${s}/storymap?fragment=cards&stories=x`,
  `/projects/${s}/build-order`,
  `/projects/${s}/todo`,
  `/projects/${s}/stories/HB-1`,
  `/projects/${s}/releases/1`,
  `/projects/${s}/storymap?at=5`,
];

/** A page of another's project answers as a missing one and shows none of it. */
const hidden = async (web: Web, cookie: string, path: string, secrets: readonly string[]) => {
  const response = await getPage(web, path, cookie);
  const body = await response.text();
  assert.equal(response.status, 404, `${path}: ${response.status}`);
  for (const s of secrets) assert.ok(!body.includes(s), `${path} shows "${s}"`);
};

describe('web view with two actors: each sees only its own projects', () => {
  it('Sam reaches none of P: not its pages, the timeline, the live stream nor its forms', () =>
    withWeb(async (web) => {
      await world(web);
      const cookie = await web.signInAs(sam);
      const secrets = ['Acme', 'WP-SECRET', 'Acme secret package'];
      const home = await (await getPage(web, '/', cookie)).text();
      assert.match(home, /Hidden Book/);
      for (const s of secrets) assert.ok(!home.includes(s), `/ shows ${s}`);
      for (const path of GOVERNANCE_PAGES(P)) await hidden(web, cookie, path, secrets);
      for (const path of ['/timeline', `/timeline?project=${P}`, '/missions']) {
        const body = await (await getPage(web, path, cookie)).text();
        for (const s of [`>${P}<`, 'WP-SECRET', 'work_package.issued</code>'])
          assert.ok(!body.includes(s), `${path} shows ${s}`);
      }
      const before = await web.app.log.head();
      const csrf = csrfOf(home);
      const form = { csrf, op: 'issue', work_package_id: 'WP-SAM', title: 'Sneaky' };
      const posted = await postForm(web, `/projects/${P}/governance`, cookie, form);
      assert.notEqual(posted.status, 303, 'the form was refused');
      const text = await posted.text();
      for (const s of secrets) assert.ok(!text.includes(s), `the refusal shows ${s}`);
      assert.equal(await web.app.log.head(), before, 'a refused form appends nothing');
    }));

  it("Olivia, a governance member of Sam's map, sees none of the map; Vic none of P's governance", () =>
    withWeb(async (web) => {
      const { S } = await world(web);
      const cookie = await web.signInAs(olivia);
      const secrets = ['Hidden story', 'A book nobody else reads'];
      for (const path of STORYMAP_PAGES(S)) await hidden(web, cookie, path, secrets);
      const page = await getPage(web, `/projects/${S}/governance`, cookie);
      assert.equal(page.status, 200, 'her governance role there shows its governance page');
      const before = await web.app.log.head();
      const form = { csrf: csrfOf(await page.text()), op: 'ready', story_id: 'HB-1' };
      const posted = await postForm(web, `/projects/${S}/todo`, cookie, form);
      assert.notEqual(posted.status, 303, 'the founder form was refused');
      assert.equal(await web.app.log.head(), before, 'a refused form appends nothing');

      const vics = await web.signInAs(vic);
      for (const path of GOVERNANCE_PAGES(P).slice(1))
        await hidden(web, vics, path, ['WP-SECRET', 'Acme secret package']);
      assert.equal((await getPage(web, `/projects/${P}`, vics)).status, 200, 'P is his project');
    }));

  it("the live stream sends Sam his project's events and none of P's", () =>
    withWeb(async (web) => {
      const { S } = await world(web);
      const cookie = await web.signInAs(sam);
      const response = await fetch(`${web.base}/events`, {
        headers: { cookie: `intentlog_session=${cookie}` },
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      await reader.read(); // subscribed
      await governance(web.app).issueWorkPackage(
        { project_id: P, work_package_id: 'WP-LIVE', title: 'Live secret' },
        { principal: olivia, idempotencyKey: 'live' },
      );
      await storymap(web.app).addNote({ project_id: S, story_id: 'HB-1', note: 'mine' }, sam);
      let text = '';
      while (!text.includes('\n\n')) text += (await reader.read()).value;
      await reader.cancel();
      assert.match(text, new RegExp(`"project_id":"${S}"`));
      assert.ok(!text.includes(P), `P's event reached Sam: ${text}`);
    }));
});
