import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { governance } from '../../src/app/governance/index.js';
import { P, po } from '../governance/fixture.js';
import { issueToken, JSON_HEADERS } from '../mcp/http-harness.js';
import { actor, csrfOf, getPage, postForm, withWeb, type Web } from './harness.js';

const GOV = `/projects/${P}/governance`;

const issueForm = async (web: Web, cookie: string, id: string, origin?: string) => {
  const page = await (await getPage(web, GOV, cookie)).text();
  const fields = { csrf: csrfOf(page), op: 'issue', work_package_id: id, title: `Package ${id}` };
  return postForm(web, GOV, cookie, fields, origin);
};

describe('web view over HTTP: sign-in', () => {
  it('a printed link signs in once, with an HttpOnly SameSite=Strict cookie', () =>
    withWeb(async (web) => {
      const link = await web.link();
      const first = await fetch(link, { redirect: 'manual' });
      assert.equal(first.status, 303);
      const cookie = first.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^intentlog_session=ils_[\w-]+; Path=\/; HttpOnly; SameSite=Strict/);
      const again = await fetch(link, { redirect: 'manual' });
      assert.equal(again.status, 401, 'a code works once');
      assert.equal((await fetch(`${web.base}/signin?code=ilc_nope`)).status, 401);
    }));

  it('an expired code is refused', () =>
    withWeb(async (web) => {
      const link = await web.link();
      web.advance(11 * 60_000);
      assert.equal((await fetch(link, { redirect: 'manual' })).status, 401);
    }));

  it('no stored secret: the log holds hashes only', () =>
    withWeb(async (web) => {
      const link = await web.link();
      const code = new URL(link).searchParams.get('code')!;
      const session = await web.signInAs();
      const events = JSON.stringify(await web.app.log.readAll({ after: 0, limit: 1000 }));
      assert.ok(!events.includes(code) && !events.includes(session));
    }));

  it('pages need a session; a bearer token is no cookie, and the cookie is no bearer token', () =>
    withWeb(async (web) => {
      assert.equal((await getPage(web, '/timeline')).status, 401);
      const token = await issueToken(web.app);
      assert.equal((await getPage(web, '/timeline', token)).status, 401);
      const cookie = await web.signInAs();
      assert.equal((await getPage(web, '/timeline', cookie)).status, 200);
      const call = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_project', arguments: { project_id: P } },
      };
      const mcp = await fetch(web.mcp, {
        method: 'POST',
        headers: { ...JSON_HEADERS, cookie: `intentlog_session=${cookie}`, origin: web.base },
        body: JSON.stringify(call),
      });
      assert.equal(mcp.status, 401, 'the MCP endpoint ignores the session cookie');
    }));

  it('signing out ends the session', () =>
    withWeb(async (web) => {
      const cookie = await web.signInAs();
      const page = await (await getPage(web, '/', cookie)).text();
      const out = await postForm(web, '/signout', cookie, { csrf: csrfOf(page) });
      assert.equal(out.status, 303);
      assert.equal((await getPage(web, '/', cookie)).status, 401);
    }));
});

describe('web view over HTTP: writes', () => {
  it('a stolen cookie replayed from another origin, or without the CSRF token, is refused', () =>
    withWeb(async (web) => {
      const cookie = await web.signInAs(actor(po.actor_id));
      const port = new URL(web.base).port;
      assert.equal((await issueForm(web, cookie, 'WP-1', 'http://evil.example')).status, 403);
      assert.equal((await issueForm(web, cookie, 'WP-1', `http://localhost:${port}`)).status, 403);
      const noCsrf = await postForm(web, GOV, cookie, {
        op: 'issue',
        work_package_id: 'WP-1',
        title: 't',
      });
      assert.equal(noCsrf.status, 403);
      const head = await web.app.log.head();
      assert.equal(
        (await web.app.log.readAll({ after: 0, limit: head })).filter(
          (e) => e.type === 'work_package.issued',
        ).length,
        0,
      );
    }));

  it('a form runs the MCP tool as the signed-in actor; a refusal is shown as a message', () =>
    withWeb(async (web) => {
      const poCookie = await web.signInAs(actor(po.actor_id));
      const done = await issueForm(web, poCookie, 'WP-7');
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), `${GOV}?done=issue_work_package`);
      const view = await governance(web.app).getWorkPackage(
        { project_id: P, work_package_id: 'WP-7' },
        actor(po.actor_id),
      );
      assert.equal(view.issued_by, po.actor_id);

      const rita = await web.signInAs(actor('rita'));
      const refused = await issueForm(web, rita, 'WP-8');
      assert.equal(refused.status, 422);
      assert.match(await refused.text(), /role="alert">forbidden: REVIEWER may not/);
    }));
});

describe('web view over HTTP: time travel, live events, audit', () => {
  it('a page as of an old position shows the past, read-only', () =>
    withWeb(async (web) => {
      const cookie = await web.signInAs();
      const before = await web.app.log.head();
      await governance(web.app).issueWorkPackage(
        { project_id: P, work_package_id: 'WP-1', title: 'One' },
        { principal: actor(po.actor_id), idempotencyKey: 'i1' },
      );
      const now = await (await getPage(web, GOV, cookie)).text();
      const past = await (await getPage(web, `${GOV}?at=${before}`, cookie)).text();
      assert.match(now, /OPEN \(1\)/);
      assert.match(past, /OPEN \(0\)/);
      assert.match(past, new RegExp(`as of global position\\s*<strong>${before}</strong`));
      assert.ok(!past.includes('name="op"'), 'no forms in the past');
      const timeline = await (await getPage(web, `/timeline?at=${before}`, cookie)).text();
      assert.ok(!timeline.includes('work_package.issued</code>'));
    }));

  it('GET /events streams each committed event that passes the filter', () =>
    withWeb(async (web) => {
      const cookie = await web.signInAs();
      const response = await fetch(`${web.base}/events?type=work_package.issued`, {
        headers: { cookie: `intentlog_session=${cookie}` },
      });
      assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      await reader.read(); // the stream's opening comment: subscribed
      await governance(web.app).issueWorkPackage(
        { project_id: P, work_package_id: 'WP-2', title: 'Two' },
        { principal: actor(po.actor_id), idempotencyKey: 'i2' },
      );
      let text = '';
      while (!text.includes('\n\n')) text += (await reader.read()).value;
      assert.match(
        text,
        /^event: log\nid: \d+\ndata: \{.*"type":"work_package.issued".*"actor_id":"olivia"/,
      );
      await reader.cancel();
    }));

  it('POST /audit streams progress, then the report', () =>
    withWeb(async (web) => {
      const cookie = await web.signInAs();
      const csrf = csrfOf(await (await getPage(web, '/audit', cookie)).text());
      const response = await postForm(web, '/audit', cookie, { csrf });
      const lines = (await response.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const last = lines.at(-1) as { report: { ok: boolean }; summary: string };
      assert.equal(last.report.ok, true, last.summary);
      assert.match(last.summary, /^verified: \d+ events/);
    }));
});
