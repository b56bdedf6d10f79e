import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { App } from '../../src/app/app.js';
import { openIntentlog } from '../../src/modules/index.js';
import { isDomainError } from '../../src/commands/errors.js';
import type { Principal } from '../../src/commands/principal.js';
import { encode } from '../../src/events/index.js';
import { governance } from '../../src/app/governance/index.js';
import { IDLE_CHECKPOINT_PAGES, type Checkpoint } from '../../src/projections/index.js';

const projects = fc.constantFrom('p1', 'p2', 'p:3/x');
const actors = fc.constantFrom('a1', 'a2', 'a3');
const roles = fc.constantFrom('PO', 'PM', 'IMPLEMENTER', 'REVIEWER') as fc.Arbitrary<
  'PO' | 'PM' | 'IMPLEMENTER' | 'REVIEWER'
>;
const principal: fc.Arbitrary<Principal> = fc.oneof(
  fc.constant({ kind: 'system' as const }),
  actors.map((actor_id) => ({ kind: 'actor' as const, actor_id })),
);
const roots = fc.constantFrom('r1', 'r2', 'r3');
const text = fc.string({ maxLength: 12 });
const key = fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined });

/** One step of a random session against the real command path. */
const step = fc.oneof(
  fc.record({ op: fc.constant('create' as const), project: projects, name: text, key }),
  fc.record({
    op: fc.constant('register' as const),
    project: projects,
    actor: actors,
    role: roles,
    display: fc.option(text, { nil: null }),
    by: principal,
    key,
  }),
  fc.record({
    op: fc.constant('bind' as const),
    project: projects,
    root: roots,
    device: fc.constantFrom('laptop', 'desk'),
    by: principal,
  }),
  fc.record({ op: fc.constant('unbind' as const), project: projects, root: roots, by: principal }),
  fc.record({ op: fc.constant('issue' as const), for: principal, label: fc.option(text) }),
  fc.record({ op: fc.constant('revoke' as const), nth: fc.nat(5) }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Governance: a project with one member per role, and the work package lifecycle on it. */
const G = 'gp';
const members = { po: 'PO', pm: 'PM', im: 'IMPLEMENTER', rv: 'REVIEWER' } as const;
const member = fc.constantFrom(...(Object.keys(members) as (keyof typeof members)[]));
const wp = fc.constantFrom('W1', 'W2', 'W/3');
const governanceStep = fc.oneof(
  fc.record({ op: fc.constant('issue' as const), wp, by: member }),
  fc.record({ op: fc.constant('claim' as const), wp, by: member }),
  fc.record({ op: fc.constant('submit' as const), wp, by: member }),
  fc.record({ op: fc.constant('request' as const), wp, by: member, reviewer: member }),
  fc.record({
    op: fc.constant('review' as const),
    nth: fc.nat(4),
    by: member,
    verdict: fc.constantFrom('APPROVE', 'REQUEST_CHANGES', 'REJECT' as const),
  }),
  fc.record({
    op: fc.constant('gate' as const),
    wp,
    by: member,
    outcome: fc.constantFrom('ACCEPT', 'REJECT', 'REWORK' as const),
  }),
  fc.record({
    op: fc.constant('decide' as const),
    by: member,
    wp: fc.option(wp, { nil: undefined }),
  }),
  fc.record({ op: fc.constant('escalate' as const), by: member }),
  fc.record({ op: fc.constant('resolve' as const), nth: fc.nat(3), by: member }),
  fc.record({
    op: fc.constant('baseline' as const),
    wps: fc.subarray(['W1', 'W2', 'W/3']),
    by: member,
  }),
);
type GovernanceStep = typeof governanceStep extends fc.Arbitrary<infer S> ? S : never;

const setUpGovernance = async (app: App) => {
  const system = { principal: { kind: 'system' as const }, idempotencyKey: 'setup' };
  await governance(app).createProject({ project_id: G, name: 'G' }, system);
  for (const [actor_id, role] of Object.entries(members))
    await governance(app).registerActor(
      { project_id: G, actor_id, role },
      { ...system, idempotencyKey: actor_id },
    );
};

const runGovernance = async (
  app: App,
  s: GovernanceStep,
  ids: { reviews: string[]; escalations: string[] },
  n: number,
) => {
  const g = governance(app);
  const call = { principal: { kind: 'actor' as const, actor_id: s.by }, idempotencyKey: `k${n}` };
  const at = { project_id: G };
  switch (s.op) {
    case 'issue':
      return g.issueWorkPackage({ ...at, work_package_id: s.wp, title: s.wp }, call);
    case 'claim':
      return g.claimWorkPackage({ ...at, work_package_id: s.wp }, call);
    case 'submit':
      return g.submitResult({ ...at, work_package_id: s.wp, summary: 'done' }, call);
    case 'request': {
      const asked = await g.requestReview(
        { ...at, work_package_id: s.wp, reviewer_id: s.reviewer },
        call,
      );
      return ids.reviews.push(asked.result.review_id);
    }
    case 'review':
      return g.submitReview(
        { ...at, review_id: ids.reviews[s.nth] ?? 'rev_none', verdict: s.verdict },
        call,
      );
    case 'gate':
      return g.closeGate({ ...at, work_package_id: s.wp, outcome: s.outcome }, call);
    case 'decide':
      return g.recordDecision(
        {
          ...at,
          kind: 'technical',
          title: 't',
          rationale: 'r',
          ...(s.wp ? { work_package_id: s.wp } : {}),
        },
        call,
      );
    case 'escalate': {
      const raised = await g.raiseEscalation({ ...at, subject: 's', details: 'd' }, call);
      return ids.escalations.push(raised.result.escalation_id);
    }
    case 'resolve':
      return g.resolveEscalation(
        { ...at, escalation_id: ids.escalations[s.nth] ?? 'esc_none', resolution: 'ok' },
        call,
      );
    case 'baseline':
      return g.releaseBaseline({ ...at, baseline_id: `B${n}`, work_package_ids: s.wps }, call);
  }
};

const ctx = (principal: Principal, key?: string) => ({
  principal,
  ...(key ? { idempotencyKey: key } : {}),
});

const unbind = (app: App, s: Extract<Step, { op: 'unbind' }>) =>
  app.projects.unbindRoot({ project_id: s.project, root_hash: s.root }, ctx(s.by));

const run = async (app: App, s: Step, tokens: string[]): Promise<unknown> => {
  const system: Principal = { kind: 'system' };
  switch (s.op) {
    case 'create':
      return app.projects.create({ project_id: s.project, name: s.name }, ctx(system, s.key));
    case 'register':
      return app.projects.registerActor(
        { project_id: s.project, actor_id: s.actor, role: s.role, display_name: s.display },
        ctx(s.by, s.key),
      );
    case 'bind':
      return app.projects.bindRoot(
        { project_id: s.project, root_hash: s.root, device: s.device },
        ctx(s.by),
      );
    case 'unbind':
      return unbind(app, s);
    case 'issue': {
      const issued = await app.tokens.issue(s.for, s.label, system);
      tokens.push(issued.token_id);
      return issued;
    }
    case 'revoke':
      return app.tokens.revoke(tokens[s.nth] ?? 'tok_unknown', system);
  }
};

/**
 * Every read-model key with its value's bytes. The checkpoints are checked apart: one of a read
 * model idle on the last pages may stand behind the head (by at most IDLE_CHECKPOINT_PAGES).
 */
const dump = async (app: App): Promise<[string, string][]> => {
  const head = await app.log.head();
  const all = await app.log.models.range<unknown>({ prefix: '' });
  for (const [key, value] of all.filter(([k]) => k.startsWith('_checkpoint/'))) {
    const { position } = value as Checkpoint;
    assert.ok(position <= head && head - position <= IDLE_CHECKPOINT_PAGES * 1000, key);
  }
  return all
    .filter(([k]) => !k.startsWith('_checkpoint/'))
    .map(([k, v]) => [k, encode(v).toString('hex')]);
};

const refusalsAllowed = (error: unknown) => {
  if (!isDomainError(error)) throw error; // refusals are part of the game
};

describe('read models are a pure function of the log', () => {
  it('every registered read model is rebuilt, and equals the one kept live', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 20 }),
        fc.array(governanceStep, { minLength: 1, maxLength: 40 }),
        async (projectSteps, governanceSteps) => {
          const app = await openIntentlog({ store: 'memory' });
          try {
            const tokens: string[] = [];
            for (const s of projectSteps) await run(app, s, tokens).catch(refusalsAllowed);
            await setUpGovernance(app);
            const ids = { reviews: [], escalations: [] };
            for (const [n, s] of governanceSteps.entries())
              await runGovernance(app, s, ids, n).catch(refusalsAllowed);
            await app.waitFor(await app.log.head());
            const live = await dump(app);
            await app.projections.rebuild(app.projectors.map((p) => p.name));
            assert.deepEqual(await dump(app), live);
          } finally {
            await app.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a rebuilt model store equals the one kept live, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.subarray(['projects', 'tokens']),
        async (steps, names) => {
          const app = await openIntentlog({ store: 'memory' });
          try {
            const tokens: string[] = [];
            for (const s of steps)
              await run(app, s, tokens).catch((error: unknown) => {
                if (!isDomainError(error)) throw error; // refusals are part of the game
              });
            await app.waitFor(await app.log.head());
            const live = await dump(app);
            await app.projections.rebuild(names);
            assert.deepEqual(await dump(app), live);
          } finally {
            await app.close();
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
