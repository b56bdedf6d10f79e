import { governance } from '../../src/app/governance/index.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { as, codeOf, principal, toSubmitted, withGovernance } from './app-harness.js';
import { architect, impl, impl2, lead, P, pm, po, reviewer, system, WP } from './fixture.js';

const at = { project_id: P, work_package_id: WP };
const claimants = [
  impl,
  impl2,
  architect,
  lead,
  ...['i3', 'i4', 'i5', 'i6'].map((id) => ({ actor_id: id, role: 'IMPLEMENTER' as const })),
];

describe('governance invariants under concurrency (one process)', () => {
  it('of 8 racing claims on an OPEN package exactly one wins; the others get invalid_state', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      for (const c of claimants.slice(4))
        await g.registerActor(
          { project_id: P, actor_id: c.actor_id, role: 'IMPLEMENTER' },
          as(system),
        );
      await g.issueWorkPackage({ ...at, title: 'contended' }, as(pm));
      const outcomes = await Promise.allSettled(
        claimants.map((c) => g.claimWorkPackage(at, as(c))),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.flatMap((o) =>
        o.status === 'rejected' ? [(o.reason as { code: string }).code] : [],
      );
      assert.equal(won.length, 1);
      assert.deepEqual(lost, Array(7).fill('invalid_state'));
      const winner = won[0]!.value.result.claimed_by;
      const view = await g.getWorkPackage(at, principal(po));
      assert.equal(view.claimed_by, winner);
      const claims = (await app.log.readProject(P, { after: 0, limit: 1000 })).filter(
        (e) => e.type === 'work_package.claimed',
      );
      assert.equal(claims.length, 1);
    }));

  it('a gate racing a second verdict and a rework: the stream orders them, ACCEPT needs the approval', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await toSubmitted(app);
      const { result } = await g.requestReview({ ...at, reviewer_id: reviewer.actor_id }, as(pm));
      const [accept, rework, verdict] = await Promise.allSettled([
        g.closeGate({ ...at, outcome: 'ACCEPT' }, as(po)),
        g.closeGate({ ...at, outcome: 'REWORK' }, as(pm)),
        g.submitReview(
          { project_id: P, review_id: result.review_id, verdict: 'APPROVE' },
          as(reviewer),
        ),
      ]);
      const view = await g.getWorkPackage(at, principal(po));
      // whatever the order, an ACCEPT that went through rests on an approval before it
      if (accept.status === 'fulfilled') {
        assert.equal(view.status, 'ACCEPTED');
        assert.equal(rework.status, 'rejected');
        assert.equal(verdict.status, 'fulfilled');
      } else assert.equal((accept.reason as { code: string }).code, 'invalid_state');
      // the log holds exactly the gates that were answered ok, an ACCEPT after the approval
      const events = await app.log.readProject(P, { after: 0, limit: 1000 });
      const gates = events.filter((e) => e.type === 'gate.closed');
      const answered = [accept, rework].filter((r) => r.status === 'fulfilled').length;
      assert.equal(gates.length, answered);
      const accepted = gates.find((e) => e.data.outcome === 'ACCEPT');
      const approved = events.find((e) => e.type === 'review.submitted');
      if (accepted) assert.ok(approved && approved.cursor < accepted.cursor);
    }));
});

describe('idempotency keys', () => {
  it('same key, same input: the stored response, nothing appended', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await g.issueWorkPackage({ ...at, title: 't' }, as(pm));
      const first = await g.claimWorkPackage(at, as(impl, 'claim-1'));
      const head = await app.log.head();
      const again = await g.claimWorkPackage(at, as(impl, 'claim-1'));
      assert.equal(again.replayed, true);
      assert.deepEqual(again.result, first.result);
      assert.equal(await app.log.head(), head);
    }));

  it('a replayed request_review answers the same review id', () =>
    withGovernance(async (app) => {
      await toSubmitted(app);
      const args = { ...at, reviewer_id: reviewer.actor_id };
      const first = await governance(app).requestReview(args, as(pm, 'rr'));
      const again = await governance(app).requestReview(args, as(pm, 'rr'));
      assert.equal(again.result.review_id, first.result.review_id);
    }));

  it('same key, other input: conflict', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await g.issueWorkPackage({ ...at, title: 't' }, as(pm, 'issue'));
      const other = g.issueWorkPackage(
        { ...at, work_package_id: 'WP-2', title: 't' },
        as(pm, 'issue'),
      );
      assert.equal(await codeOf(other), 'conflict');
    }));

  it('8 concurrent calls with one key append once and all answer the same', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      const calls = Array.from({ length: 8 }, () =>
        g.issueWorkPackage({ ...at, title: 'once' }, as(pm, 'same-key')),
      );
      const results = await Promise.all(calls);
      assert.ok(
        results.every((r) => r.result.work_package_id === WP && r.result.status === 'OPEN'),
      );
      const issued = (await app.log.readProject(P, { after: 0, limit: 1000 })).filter(
        (e) => e.type === 'work_package.issued',
      );
      assert.equal(issued.length, 1);
    }));

  it('keys belong to their caller: two callers with one key do not answer each other', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await g.issueWorkPackage({ ...at, title: 'a' }, as(pm, 'k'));
      const b = await g.issueWorkPackage(
        { ...at, work_package_id: 'WP-B', title: 'b' },
        as(po, 'k'),
      );
      assert.equal(b.result.work_package_id, 'WP-B');
    }));
});
