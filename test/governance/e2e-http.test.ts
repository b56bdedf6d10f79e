import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../../src/commands/principal.js';
import { call, sharedServers } from './serve-harness.js';

const actor = (actor_id: string): Principal => ({ kind: 'actor', actor_id });
const P = 'acme';
const CAST = {
  olivia: 'PO',
  pat: 'PM',
  paul: 'PA',
  ada: 'ARCHITECT',
  linus: 'LEAD_ENGINEER',
  ivan: 'IMPLEMENTER',
  irene: 'IMPLEMENTER',
  rita: 'REVIEWER',
} as const;
type Name = keyof typeof CAST | 'system' | 'mallory';
const principals = {
  system: { kind: 'system' },
  mallory: actor('mallory'),
  ...Object.fromEntries(Object.keys(CAST).map((n) => [n, actor(n)])),
} as Record<Name, Principal>;

let keys = 0;
const key = () => `e2e-${++keys}`;

/**
 * Every governance tool through a real MCP client over Streamable HTTP against a real
 * `intentlog serve` process, each actor with its own bearer token.
 */
describe('governance over HTTP: every tool, end to end', () => {
  const servers = sharedServers(1, principals);
  const as = (name: Name) => servers.clients[0]![name]!;
  before(() => servers.start());
  after(() => servers.stop());

  it('create_project and register_actor: SYSTEM, then PO/PM; a PM cannot appoint a PO', async () => {
    const created = await call(as('system'), 'create_project', {
      project_id: P,
      name: 'Acme',
      idempotency_key: key(),
    });
    assert.deepEqual(created.result, { project_id: P, name: 'Acme', description: null });
    const denied = await call(as('olivia'), 'create_project', {
      project_id: 'x',
      name: 'x',
      idempotency_key: key(),
    });
    assert.equal(denied.error?.code, 'forbidden');
    await call(as('system'), 'register_actor', {
      project_id: P,
      actor_id: 'olivia',
      role: 'PO',
      idempotency_key: key(),
    });
    await call(as('system'), 'register_actor', {
      project_id: P,
      actor_id: 'pat',
      role: 'PM',
      idempotency_key: key(),
    });
    for (const [name, role] of Object.entries(CAST).slice(2)) {
      const reg = await call(as('pat'), 'register_actor', {
        project_id: P,
        actor_id: name,
        role,
        idempotency_key: key(),
      });
      assert.equal(reg.result?.role, role);
    }
    const po = await call(as('pat'), 'register_actor', {
      project_id: P,
      actor_id: 'x',
      role: 'PO',
      idempotency_key: key(),
    });
    assert.equal(po.error?.code, 'forbidden');
    const project = await call(as('rita'), 'get_project', { project_id: P });
    const roster = project.result?.roster as { actor_id: string; role: string }[];
    assert.deepEqual(
      Object.fromEntries(roster.map((m) => [m.actor_id, m.role])),
      CAST as Record<string, string>,
    );
  });

  it('a caller without membership is forbidden; a mutation without idempotency_key is refused', async () => {
    const outsider = await call(as('mallory'), 'get_project', { project_id: P });
    assert.equal(outsider.error?.code, 'forbidden');
    const keyless = await call(as('pat'), 'issue_work_package', {
      project_id: P,
      work_package_id: 'WP-0',
      title: 't',
    });
    assert.equal(keyless.error?.code, 'invalid_argument');
  });

  it('issue, claim, link, submit, review, gate, baseline: the work package lifecycle', async () => {
    const wp = { project_id: P, work_package_id: 'WP-001' };
    const issued = await call(as('pat'), 'issue_work_package', {
      ...wp,
      title: 'Add login',
      acceptance_criteria: ['a user can log in'],
      idempotency_key: key(),
    });
    assert.equal(issued.result?.status, 'OPEN');
    assert.equal(
      (await call(as('rita'), 'claim_work_package', { ...wp, idempotency_key: key() })).error?.code,
      'forbidden',
    );
    const claimed = await call(as('ivan'), 'claim_work_package', { ...wp, idempotency_key: key() });
    assert.deepEqual([claimed.result?.status, claimed.result?.claimed_by], ['CLAIMED', 'ivan']);

    const badCommit = await call(as('ivan'), 'link_commit', {
      ...wp,
      commit_id: 'main',
      idempotency_key: key(),
    });
    assert.equal(badCommit.error?.code, 'invalid_argument');
    const commit = await call(as('ivan'), 'link_commit', {
      ...wp,
      commit_id: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      repository: 'https://github.com/acme/app',
      idempotency_key: key(),
    });
    assert.equal(commit.result?.commit_id, '9fceb02d0ae598e95dc970b74767f19372d61af8');
    const artifact = await call(as('rita'), 'link_artifact', {
      ...wp,
      uri: 'https://example.com/design.md',
      title: 'design',
      idempotency_key: key(),
    });
    assert.equal(artifact.result?.uri, 'https://example.com/design.md');

    assert.equal(
      (await call(as('irene'), 'submit_result', { ...wp, summary: 'x', idempotency_key: key() }))
        .error?.code,
      'forbidden',
    );
    const submitted = await call(as('ivan'), 'submit_result', {
      ...wp,
      summary: 'login works',
      idempotency_key: key(),
    });
    assert.equal(submitted.result?.status, 'SUBMITTED');

    const selfReview = await call(as('ivan'), 'request_review', {
      ...wp,
      reviewer_id: 'ivan',
      idempotency_key: key(),
    });
    assert.equal(selfReview.error?.code, 'invalid_argument');
    const requested = await call(as('ivan'), 'request_review', {
      ...wp,
      reviewer_id: 'rita',
      idempotency_key: key(),
    });
    const reviewId = requested.result?.review_id as string;
    const todo = await call(as('rita'), 'list_pending_actions', { project_id: P });
    assert.deepEqual(
      (todo.result?.actions as { action: string; review_id: string }[]).map((a) => [
        a.action,
        a.review_id,
      ]),
      [['submit_review', reviewId]],
    );
    const early = await call(as('olivia'), 'close_gate', {
      ...wp,
      outcome: 'ACCEPT',
      idempotency_key: key(),
    });
    assert.equal(early.error?.code, 'invalid_state');
    const notMine = await call(as('irene'), 'submit_review', {
      project_id: P,
      review_id: reviewId,
      verdict: 'APPROVE',
      idempotency_key: key(),
    });
    assert.equal(notMine.error?.code, 'forbidden');
    const approved = await call(as('rita'), 'submit_review', {
      project_id: P,
      review_id: reviewId,
      verdict: 'APPROVE',
      notes: 'clean',
      idempotency_key: key(),
    });
    assert.equal(approved.result?.verdict, 'APPROVE');

    const gates = await call(as('olivia'), 'list_pending_actions', { project_id: P });
    assert.deepEqual(
      (gates.result?.actions as { action: string; ready_to_accept: boolean }[]).map((a) => [
        a.action,
        a.ready_to_accept,
      ]),
      [['close_gate', true]],
    );
    const accepted = await call(as('olivia'), 'close_gate', {
      ...wp,
      outcome: 'ACCEPT',
      reason: 'approved',
      idempotency_key: key(),
    });
    assert.equal(accepted.result?.status, 'ACCEPTED');

    const baseline = await call(as('pat'), 'baseline_release', {
      project_id: P,
      baseline_id: 'v1.0',
      work_package_ids: ['WP-001'],
      idempotency_key: key(),
    });
    assert.deepEqual(baseline.result?.work_package_ids, ['WP-001']);
    const view = await call(as('paul'), 'get_work_package', wp);
    assert.equal(view.result?.status, 'ACCEPTED');
    assert.deepEqual(view.result?.baselines, ['v1.0']);
    assert.equal((view.result?.reviews as unknown[]).length, 1);
  });

  it('record_decision, raise_escalation and resolve_escalation by role', async () => {
    const d = { project_id: P, title: 'OAuth only', rationale: 'less to build' };
    assert.equal(
      (await call(as('pat'), 'record_decision', { ...d, kind: 'product', idempotency_key: key() }))
        .error?.code,
      'forbidden',
    );
    assert.equal(
      (await call(as('paul'), 'record_decision', { ...d, kind: 'process', idempotency_key: key() }))
        .error?.code,
      'forbidden',
    );
    const product = await call(as('olivia'), 'record_decision', {
      ...d,
      kind: 'product',
      work_package_id: 'WP-001',
      idempotency_key: key(),
    });
    assert.match(product.result?.decision_id as string, /^dec_/);
    const technical = await call(as('pat'), 'record_decision', {
      ...d,
      kind: 'technical',
      idempotency_key: key(),
    });
    assert.equal(technical.ok, true);

    const raised = await call(as('ivan'), 'raise_escalation', {
      project_id: P,
      subject: 'no staging',
      details: 'need a staging database',
      target_role: 'PM',
      idempotency_key: key(),
    });
    const id = raised.result?.escalation_id as string;
    const pmTodo = await call(as('pat'), 'list_pending_actions', { project_id: P });
    assert.ok(
      (pmTodo.result?.actions as { escalation_id: string }[]).some((a) => a.escalation_id === id),
    );
    const resolveArgs = { project_id: P, escalation_id: id, resolution: 'provisioned' };
    assert.equal(
      (await call(as('ivan'), 'resolve_escalation', { ...resolveArgs, idempotency_key: key() }))
        .error?.code,
      'forbidden',
    );
    const resolved = await call(as('pat'), 'resolve_escalation', {
      ...resolveArgs,
      idempotency_key: key(),
    });
    assert.equal(resolved.result?.status, 'RESOLVED');
  });

  it('idempotency: a replay answers the stored response; other input under the key is conflict', async () => {
    const args = {
      project_id: P,
      work_package_id: 'WP-002',
      title: 'Logout',
      idempotency_key: 'issue-wp-2',
    };
    const first = await call(as('pat'), 'issue_work_package', args);
    const again = await call(as('pat'), 'issue_work_package', args);
    assert.deepEqual([again.replayed, again.result], [true, first.result]);
    const other = await call(as('pat'), 'issue_work_package', { ...args, title: 'Sign out' });
    assert.equal(other.error?.code, 'conflict');
  });

  it('sync_since pages the whole project in contract envelopes', async () => {
    const seen: { cursor: number; event_type: string }[] = [];
    let cursor = 0;
    for (;;) {
      const page = await call(as('rita'), 'sync_since', { project_id: P, cursor, limit: 7 });
      const events = page.result?.events as { cursor: number; event_type: string }[];
      seen.push(...events);
      cursor = page.result?.next_cursor as number;
      if (!page.result?.has_more) break;
    }
    const cursors = seen.map((e) => e.cursor);
    assert.deepEqual(
      cursors,
      Array.from({ length: cursors.length }, (_, i) => i + 1),
    );
    const types = new Set(seen.map((e) => e.event_type));
    for (const t of [
      'project.created',
      'actor.registered',
      'work_package.issued',
      'work_package.claimed',
      'work_package.result_submitted',
      'review.requested',
      'review.submitted',
      'commit.linked',
      'artifact.linked',
      'gate.closed',
      'baseline.released',
      'decision.recorded',
      'escalation.raised',
      'escalation.resolved',
    ])
      assert.ok(types.has(t), t);
    const tooMany = await call(as('rita'), 'sync_since', { project_id: P, cursor: 0, limit: 501 });
    assert.equal(tooMany.error?.code, 'invalid_argument');
  });
});
