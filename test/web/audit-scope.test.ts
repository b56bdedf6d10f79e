import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { governance } from '../../src/app/governance/index.js';
import type { ProjectView } from '../../src/projections/project/projects.js';
import { modelKeyPrefix } from '../../src/projections/projector.js';
import { P, po } from '../governance/fixture.js';
import { actor, csrfOf, getPage, postForm, withWeb, type Web } from './harness.js';

/** Another actor's project: Sam's, which Olivia (P's PO) is no member of. */
const Q = 'secret-q';
const sam = actor('sam');

const samsProject = async (web: Web) => {
  const g = governance(web.app);
  const sys = { principal: { kind: 'system' as const }, idempotencyKey: 'q' };
  await g.createProject({ project_id: Q, name: 'Secret' }, sys);
  await g.registerActor(
    { project_id: Q, actor_id: 'sam', role: 'PO' },
    { ...sys, idempotencyKey: 'q-sam' },
  );
  await g.issueWorkPackage(
    { project_id: Q, work_package_id: 'WP-Q', title: 'Hidden' },
    { principal: sam, idempotencyKey: 'q-wp' },
  );
};

/** A read model of Q's changed behind the log's back: the audit's read-model check finds it. */
const tamperWithQ = async (web: Web) => {
  const prefix = `projects/${modelKeyPrefix('project')}`;
  const [key, view] = (await web.app.log.models.range<ProjectView>({ prefix })).find(
    ([, v]) => v.project_id === Q,
  )!;
  await web.app.log.models.write([{ type: 'put', key, value: { ...view, name: 'Renamed' } }]);
};

/** Q's second event as the store would read it had its bytes been edited: the chain breaks there. */
const tamperWithQsChain = (web: Web) => {
  const log = web.app.log;
  const readRaw = log.readRaw.bind(log);
  log.readRaw = async (page) =>
    (await readRaw(page)).map((r) =>
      r.project_id === Q && r.cursor === 2 ? { ...r, actor_id: 'mallory' } : r,
    );
};

type Line = {
  done?: number;
  report?: { ok: boolean; events: number; projects: number };
  summary?: string;
};

const auditAs = async (web: Web, cookie: string) => {
  const csrf = csrfOf(await (await getPage(web, '/audit', cookie)).text());
  const response = await postForm(web, '/audit', cookie, { csrf });
  const text = await response.text();
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
  return { text, last: lines.at(-1)! };
};

const eventsOf = async (web: Web, project: string) =>
  (await web.app.log.readProject(project, { after: 0, limit: 10_000 })).length;

describe('web view: who runs an audit over what', () => {
  it('an actor audits its own projects: another project is neither checked nor named', () =>
    withWeb(async (web) => {
      await samsProject(web);
      await tamperWithQ(web);
      tamperWithQsChain(web);
      const olivia = await web.signInAs(actor(po.actor_id));
      const mine = await auditAs(web, olivia);
      assert.equal(mine.last.report!.ok, true, mine.last.summary);
      assert.equal(mine.last.report!.projects, 1, 'only P, the one Olivia is a member of');
      assert.equal(mine.last.report!.events, await eventsOf(web, P));
      assert.ok(!mine.text.includes(Q), `Q's id reached Olivia: ${mine.text}`);
      assert.match(mine.last.summary!, /in 1 project of yours/);
    }));

  it('the local user (SYSTEM) audits the whole log and is told of the other project', () =>
    withWeb(async (web) => {
      await samsProject(web);
      tamperWithQsChain(web);
      const local = await web.signInAs();
      const all = await auditAs(web, local);
      assert.equal(all.last.report!.ok, false);
      assert.match(
        all.last.summary!,
        new RegExp(`^chain check failed at event \\S+ \\(project ${Q}, cursor 2`),
      );
    }));

  it("Sam's audit finds what is wrong in Sam's project, and an audit appends nothing", () =>
    withWeb(async (web) => {
      await samsProject(web);
      tamperWithQsChain(web);
      const samCookie = await web.signInAs(sam);
      const before = await web.app.log.head();
      const samsAudit = await auditAs(web, samCookie);
      assert.equal(samsAudit.last.report!.ok, false);
      assert.match(samsAudit.last.summary!, new RegExp(`\\(project ${Q}, cursor 2`));
      assert.ok(!samsAudit.text.includes(`"${P}"`), 'nor does P reach Sam');
      assert.equal(await web.app.log.head(), before, 'the audit appended nothing');
    }));
});
