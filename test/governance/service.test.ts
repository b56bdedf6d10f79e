import { governance } from '../../src/app/governance/index.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { as, codeOf, principal, toSubmitted, withGovernance } from './app-harness.js';
import { impl, impl2, P, pa, pm, po, reviewer, reviewer2, system, WP } from './fixture.js';

const at = { project_id: P, work_package_id: WP };

describe('governance service: a work package from issue to baseline', () => {
  it('walks the lifecycle; views and pending actions follow every step', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      const issued = await g.issueWorkPackage(
        { ...at, title: 'Add login', acceptance_criteria: ['a user can log in'] },
        as(pm),
      );
      assert.equal(issued.result.status, 'OPEN');
      const claimed = await g.claimWorkPackage(at, as(impl));
      assert.deepEqual([claimed.result.status, claimed.result.claimed_by], ['CLAIMED', 'ivan']);
      let mine = await g.listPendingActions({ project_id: P }, principal(impl));
      assert.deepEqual(
        mine.actions.map((a) => [a.action, a.work_package_id]),
        [['submit_result', WP]],
      );

      await g.submitResult({ ...at, summary: 'login works' }, as(impl));
      mine = await g.listPendingActions({ project_id: P }, principal(impl));
      assert.deepEqual(mine.actions, []);
      const gates = await g.listPendingActions({ project_id: P }, principal(po));
      assert.deepEqual(
        gates.actions.map((a) => [a.action, a.ready_to_accept]),
        [['close_gate', false]],
      );

      const { result: req } = await g.requestReview({ ...at, reviewer_id: 'rita' }, as(impl));
      const todo = await g.listPendingActions({ project_id: P }, principal(reviewer));
      assert.deepEqual(
        todo.actions.map((a) => [a.action, a.review_id]),
        [['submit_review', req.review_id]],
      );
      assert.equal(
        await codeOf(g.closeGate({ ...at, outcome: 'ACCEPT' }, as(po))),
        'invalid_state',
        'no ACCEPT before the approval',
      );

      const verdict = await g.submitReview(
        { project_id: P, review_id: req.review_id, verdict: 'APPROVE', notes: 'good' },
        as(reviewer),
      );
      assert.equal(verdict.result.verdict, 'APPROVE');
      const ready = await g.listPendingActions({ project_id: P }, principal(pm));
      assert.deepEqual(
        ready.actions.map((a) => a.ready_to_accept),
        [true],
      );

      await g.linkCommit({ ...at, commit_id: 'ABCDEF1234' }, as(impl));
      await g.linkArtifact({ ...at, uri: 'https://example.com/pr/1', title: 'PR' }, as(reviewer));
      const accepted = await g.closeGate({ ...at, outcome: 'ACCEPT' }, as(po));
      assert.equal(accepted.result.status, 'ACCEPTED');
      assert.equal(accepted.result.gate?.approving_review_id, req.review_id);

      const baseline = await g.releaseBaseline(
        { project_id: P, baseline_id: 'v1.0', work_package_ids: [WP] },
        as(pm),
      );
      assert.deepEqual(baseline.result.work_package_ids, [WP]);
      const view = await g.getWorkPackage(at, principal(reviewer2));
      assert.equal(view.status, 'ACCEPTED');
      assert.deepEqual(
        view.links.commits.map((c) => c.commit_id),
        ['abcdef1234'],
      );
      assert.deepEqual(
        view.links.artifacts.map((a) => a.uri),
        ['https://example.com/pr/1'],
      );
      assert.deepEqual(
        view.reviews.map((r) => [r.reviewer_id, r.verdict]),
        [['rita', 'APPROVE']],
      );
      assert.deepEqual(view.baselines, ['v1.0']);
      assert.equal(view.gate?.closed_by, 'olivia');
      assert.deepEqual((await g.listPendingActions({ project_id: P }, principal(po))).actions, []);
    }));

  it('REWORK sends the package back to its claimant, with the action to match', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await toSubmitted(app);
      const back = await g.closeGate({ ...at, outcome: 'REWORK', reason: 'tests missing' }, as(pm));
      assert.deepEqual([back.result.status, back.result.claimed_by], ['CLAIMED', 'ivan']);
      const mine = await g.listPendingActions({ project_id: P }, principal(impl));
      assert.deepEqual(
        mine.actions.map((a) => a.action),
        ['submit_result'],
      );
      assert.equal(await codeOf(g.submitResult({ ...at, summary: 'x' }, as(impl2))), 'forbidden');
      const again = await g.submitResult({ ...at, summary: 'with tests' }, as(impl));
      assert.equal(again.result.result?.result_number, 2);
    }));

  it('a review by someone who submitted is refused, and so is a verdict by someone else', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await toSubmitted(app);
      assert.equal(
        await codeOf(g.requestReview({ ...at, reviewer_id: 'ivan' }, as(pm))),
        'invalid_argument',
      );
      assert.equal(
        await codeOf(g.requestReview({ ...at, reviewer_id: 'pat' }, as(pm))),
        'invalid_argument',
      );
      assert.equal(
        await codeOf(g.requestReview({ ...at, reviewer_id: 'nobody' }, as(pm))),
        'not_found',
      );
      const { result } = await g.requestReview({ ...at, reviewer_id: 'rita' }, as(pm));
      const review = { project_id: P, review_id: result.review_id, verdict: 'APPROVE' as const };
      assert.equal(await codeOf(g.submitReview(review, as(reviewer2))), 'forbidden');
      assert.equal(
        await codeOf(g.submitReview({ ...review, review_id: 'rev_nope' }, as(reviewer))),
        'not_found',
      );
    }));

  it('decisions: product only by the PO, other kinds by PO or PM, never by the PA', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      const d = { project_id: P, title: 't', rationale: 'r' };
      assert.equal(await codeOf(g.recordDecision({ ...d, kind: 'product' }, as(pm))), 'forbidden');
      assert.equal(
        await codeOf(g.recordDecision({ ...d, kind: 'technical' }, as(pa))),
        'forbidden',
      );
      const ok = await g.recordDecision({ ...d, kind: 'product' }, as(po));
      assert.match(ok.result.decision_id, /^dec_/);
      await g.recordDecision({ ...d, kind: 'process' }, as(pm));
      assert.equal(
        await codeOf(
          g.recordDecision({ ...d, kind: 'technical', work_package_id: 'WP-404' }, as(pm)),
        ),
        'not_found',
      );
    }));

  it('escalations reach the role they target, and leave when resolved', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      const raised = await g.raiseEscalation(
        { project_id: P, subject: 'blocked', details: 'no key', target_role: 'PM' },
        as(impl),
      );
      const forAll = await g.raiseEscalation(
        { project_id: P, subject: 'x', details: 'y' },
        as(reviewer),
      );
      const ids = async (c: typeof pm) =>
        (await g.listPendingActions({ project_id: P }, principal(c))).actions.map(
          (a) => a.escalation_id,
        );
      assert.deepEqual(await ids(pm), [raised.result.escalation_id, forAll.result.escalation_id]);
      assert.deepEqual(await ids(po), [forAll.result.escalation_id]);
      assert.deepEqual(await ids(impl), []);
      const esc = { project_id: P, escalation_id: raised.result.escalation_id, resolution: 'done' };
      assert.equal(await codeOf(g.resolveEscalation(esc, as(impl))), 'forbidden');
      const resolved = await g.resolveEscalation(esc, as(po));
      assert.equal(resolved.result.status, 'RESOLVED');
      assert.equal(await codeOf(g.resolveEscalation(esc, as(pm))), 'invalid_state');
      assert.deepEqual(await ids(pm), [forAll.result.escalation_id]);
    }));

  it('a baseline takes only accepted packages', () =>
    withGovernance(async (app) => {
      await toSubmitted(app);
      const b = { project_id: P, baseline_id: 'v1', work_package_ids: [WP] };
      assert.equal(await codeOf(governance(app).releaseBaseline(b, as(pm))), 'invalid_state');
      const missing = { ...b, work_package_ids: ['WP-404'] };
      assert.equal(await codeOf(governance(app).releaseBaseline(missing, as(pm))), 'not_found');
    }));
});

describe('governance service: membership', () => {
  it('a principal without membership is forbidden everywhere in the project', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await toSubmitted(app);
      const stranger = { actor_id: 'mallory', role: 'IMPLEMENTER' as const };
      const who = principal(stranger);
      const results = await Promise.all([
        codeOf(g.claimWorkPackage(at, as(stranger))),
        codeOf(g.linkCommit({ ...at, commit_id: 'abcd' }, as(stranger))),
        codeOf(g.raiseEscalation({ project_id: P, subject: 's', details: 'd' }, as(stranger))),
        codeOf(g.getWorkPackage(at, who)),
        codeOf(g.getProject({ project_id: P }, who)),
        codeOf(g.listPendingActions({ project_id: P }, who)),
        codeOf(g.syncSince({ project_id: P, cursor: 0 }, who)),
      ]);
      assert.deepEqual(new Set(results), new Set(['forbidden']));
    }));

  it('an unknown project is not_found', () =>
    withGovernance(async (app) => {
      assert.equal(
        await codeOf(governance(app).getProject({ project_id: 'nope' }, principal(po))),
        'not_found',
      );
    }));

  it('SYSTEM creates projects and registers actors; only SYSTEM creates projects', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      assert.equal(
        await codeOf(g.createProject({ project_id: 'p2', name: 'n' }, as(po))),
        'forbidden',
      );
      assert.equal(
        await codeOf(g.registerActor({ project_id: P, actor_id: 'x', role: 'PO' }, as(pm))),
        'forbidden',
        'a PM cannot appoint a PO',
      );
      const reg = await g.registerActor({ project_id: P, actor_id: 'x', role: 'PA' }, as(pm));
      assert.equal(reg.result.role, 'PA');
      const roster = await g.getProject({ project_id: P }, principal(system));
      assert.ok(roster.roster.some((m) => m.actor_id === 'x' && m.role === 'PA'));
      assert.equal(
        await codeOf(g.issueWorkPackage({ ...at, title: 't' }, as(system))),
        'forbidden',
      );
    }));
});
