import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { App } from '../../src/app/app.js';
import { governance } from '../../src/app/governance/index.js';
import { isDomainError } from '../../src/commands/errors.js';
import { WorkPackageStatus } from '../../src/events/governance/index.js';
import { encode, type LogEvent } from '../../src/events/index.js';
import {
  listWorkPackages,
  readWorkPackage,
  workPackageHead,
  workPackageItems,
} from '../../src/projections/governance/work-package-reads.js';
import type {
  PackageList,
  WorkPackageView,
} from '../../src/projections/governance/work-packages.js';
import { withGovernance } from './app-harness.js';
import { P } from './fixture.js';
import { foldWorkPackage } from './reference-view.js';

/**
 * The work-packages read model keeps a package as a head and its lists item by item (issue 39).
 * After random command sequences through the service: every package reads back exactly as the
 * whole-view fold of a29edd4 folds the log (reference-view.ts), pages of its lists and of the
 * by-state listing put together give the same, and the model rebuilt from the log equals the
 * one kept live, key for key and byte for byte.
 */
const G = P;
/** Members of the harness's cast (app-harness.ts) */
const member = fc.constantFrom('olivia', 'pat', 'ivan', 'rita', 'rolf');
const wp = fc.constantFrom<string>('W1', 'W2', 'W/3', 'W 4');

const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant('advance' as const), wp, choice: fc.nat(11) }),
  },
  fc.record({ op: fc.constant('issue' as const), wp, by: fc.constantFrom('olivia', 'pat') }),
  fc.record({ op: fc.constant('claim' as const), wp }),
  fc.record({ op: fc.constant('submit' as const), wp }),
  fc.record({ op: fc.constant('request' as const), wp, reviewer: member }),
  fc.record({
    op: fc.constant('review' as const),
    nth: fc.nat(6),
    verdict: fc.constantFrom('APPROVE', 'REQUEST_CHANGES', 'REJECT' as const),
  }),
  fc.record({
    op: fc.constant('gate' as const),
    wp,
    outcome: fc.constantFrom('ACCEPT', 'REJECT', 'REWORK', 'REWORK' as const),
  }),
  fc.record({
    op: fc.constant('commit' as const),
    wp,
    by: member,
    commit: fc.constantFrom<string>('abcd', 'ABCDEF', '0123', '4567'),
    repository: fc.option(fc.constantFrom('', 'github.com/a/b'), { nil: undefined }),
  }),
  fc.record({ op: fc.constant('artifact' as const), wp, by: member, n: fc.nat(3) }),
  fc.record({
    op: fc.constant('baseline' as const),
    wps: fc.subarray<string>(['W1', 'W2', 'W/3', 'W 4']),
  }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

const VERDICTS = ['APPROVE', 'APPROVE', 'REQUEST_CHANGES', 'REJECT'] as const;
const OUTCOMES = ['ACCEPT', 'ACCEPT', 'REWORK'] as const;

type Action =
  | Exclude<Step, { op: 'advance' }>
  | { op: 'answer'; review_id: string; verdict: (typeof VERDICTS)[number] };

/** The step a package's life takes next from where it is (`choice` picks among the ways on). */
const advance = async (app: App, id: string, choice: number, n: number): Promise<Action> => {
  const view = await governance(app)
    .getWorkPackage({ project_id: G, work_package_id: id }, { kind: 'system' })
    .catch(() => undefined);
  const pending = view?.reviews.findIndex((r) => r.status === 'PENDING') ?? -1;
  switch (view?.status) {
    case undefined:
      return { op: 'issue', wp: id, by: 'pat' };
    case 'OPEN':
      return { op: 'claim', wp: id };
    case 'CLAIMED':
      return choice % 3 === 0
        ? { op: 'request', wp: id, reviewer: 'rita' }
        : { op: 'submit', wp: id };
    case 'SUBMITTED': {
      if (pending >= 0 && choice % 4 !== 3) {
        const review_id = view!.reviews[pending]!.review_id;
        return { op: 'answer', review_id, verdict: VERDICTS[choice % 4]! };
      }
      if (choice % 3 === 0)
        return { op: 'request', wp: id, reviewer: choice % 2 ? 'rita' : 'rolf' };
      return { op: 'gate', wp: id, outcome: choice === 11 ? 'REJECT' : OUTCOMES[choice % 3]! };
    }
    case 'ACCEPTED':
      return { op: 'baseline', wps: [id] };
    case 'REJECTED':
      return {
        op: 'commit',
        wp: id,
        by: 'rita',
        commit: (n + 0x1000).toString(16),
        repository: undefined,
      };
  }
};

const run = async (app: App, step: Step, reviews: string[], n: number): Promise<unknown> => {
  const s = step.op === 'advance' ? await advance(app, step.wp, step.choice, n) : step;
  const g = governance(app);
  const as = (actor_id: string) => ({
    principal: { kind: 'actor' as const, actor_id },
    idempotencyKey: `k${n}`,
  });
  const at = (work_package_id: string) => ({ project_id: G, work_package_id });
  switch (s.op) {
    case 'issue':
      return g.issueWorkPackage({ ...at(s.wp), title: `title ${s.wp}` }, as(s.by));
    case 'claim':
      return g.claimWorkPackage(at(s.wp), as('ivan'));
    case 'submit':
      return g.submitResult({ ...at(s.wp), summary: `summary ${n}` }, as('ivan'));
    case 'request': {
      const asked = await g.requestReview({ ...at(s.wp), reviewer_id: s.reviewer }, as('pat'));
      return reviews.push(asked.result.review_id);
    }
    case 'review':
    case 'answer': {
      const review_id =
        s.op === 'answer' ? s.review_id : (reviews[s.nth % Math.max(1, reviews.length)] ?? 'none');
      for (const by of ['rita', 'rolf', 'olivia', 'pat', 'ivan'])
        try {
          return await g.submitReview({ project_id: G, review_id, verdict: s.verdict }, as(by));
        } catch (error) {
          if (!isDomainError(error) || error.code !== 'forbidden') throw error;
        }
      return;
    }
    case 'gate':
      return g.closeGate({ ...at(s.wp), outcome: s.outcome }, as('pat'));
    case 'commit': {
      const repository = s.repository === undefined ? {} : { repository: s.repository };
      return g.linkCommit({ ...at(s.wp), commit_id: s.commit, ...repository }, as(s.by));
    }
    case 'artifact':
      return g.linkArtifact({ ...at(s.wp), uri: `https://a.example/${s.n}` }, as(s.by));
    case 'baseline':
      return g.releaseBaseline(
        { project_id: G, baseline_id: `B${n}`, work_package_ids: s.wps },
        as('olivia'),
      );
  }
};

/** Every package of the log, folded whole as the read model was before issue 39. */
const referenceViews = async (app: App): Promise<Map<string, WorkPackageView>> => {
  const views = new Map<string, WorkPackageView>();
  const events: LogEvent[] = [];
  for (let page; (page = await app.log.readAll({ after: events.length, limit: 1000 })).length;)
    events.push(...page);
  for (const e of events) {
    if (e.project_id !== G) continue;
    if (e.type === 'baseline.released') {
      const { baseline_id, work_package_ids } = e.data as {
        baseline_id: string;
        work_package_ids: string[];
      };
      for (const id of work_package_ids) {
        const v = views.get(id);
        if (v)
          views.set(id, {
            ...v,
            baselines: [...v.baselines, baseline_id],
            updated_at: e.created_at,
          });
      }
      continue;
    }
    const id = (e.data as { work_package_id?: string }).work_package_id;
    if (id === undefined || !e.type.match(/^(work_package|review|commit|artifact|gate)\./))
      continue;
    const view = foldWorkPackage(views.get(id), e as Parameters<typeof foldWorkPackage>[1]);
    if (view) views.set(id, view);
  }
  return views;
};

/** A list read in pages of `size`, put back together. */
const paged = async (app: App, id: string, list: PackageList, size: number) => {
  const head = (await workPackageHead(app.log.models, G, id))!;
  const items: unknown[] = [];
  for (let offset = 0; offset < head.counts[list]; offset += size)
    items.push(
      ...(await workPackageItems(app.log.models, head, list, { offset, limit: size })).items,
    );
  return items;
};

const checkReads = async (app: App, expected: Map<string, WorkPackageView>) => {
  for (const [id, view] of expected) {
    assert.deepStrictEqual(await readWorkPackage(app.log.models, G, id), view);
    assert.deepStrictEqual(await paged(app, id, 'reviews', 2), view.reviews);
    assert.deepStrictEqual(await paged(app, id, 'commits', 3), view.links.commits);
  }
  const byKey = (a: WorkPackageView, b: WorkPackageView) =>
    b.updated_at.localeCompare(a.updated_at) ||
    (encodeURIComponent(b.work_package_id) < encodeURIComponent(a.work_package_id) ? -1 : 1);
  for (const status of WorkPackageStatus.options) {
    const inState = [...expected.values()].filter((v) => v.status === status).sort(byKey);
    const ids = inState.map((v) => v.work_package_id);
    const all = await listWorkPackages(app.log.models, G, { status });
    assert.equal(all.total, ids.length, status);
    assert.deepStrictEqual(
      all.items.map((h) => h.work_package_id),
      ids,
      status,
    );
    const second = await listWorkPackages(app.log.models, G, { status, offset: 1, limit: 2 });
    assert.deepStrictEqual(
      second.items.map((h) => h.work_package_id),
      ids.slice(1, 3),
      status,
    );
  }
};

const dump = async (app: App) =>
  (
    await Promise.all(
      ['work-packages/', 'pending-actions/'].map((prefix) => app.log.models.range({ prefix })),
    )
  )
    .flat()
    .map(([k, v]) => [k, encode(v).toString('hex')]);

describe('the work-packages read model, per item', () => {
  it('reads as the whole-view fold, pages included, and rebuilds to what was kept live', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 20, maxLength: 80, size: 'medium' }),
        async (steps) => {
          await withGovernance(async (app) => {
            const reviews: string[] = [];
            for (const [n, s] of steps.entries())
              await run(app, s, reviews, n).catch((error: unknown) => {
                if (!isDomainError(error)) throw error; // refusals are part of the game
              });
            await app.waitFor(await app.log.head());
            await checkReads(app, await referenceViews(app));
            const live = await dump(app);
            await app.projections.rebuild(['work-packages', 'pending-actions']);
            assert.deepStrictEqual(await dump(app), live);
          });
        },
      ),
      { numRuns: 30 },
    ));
});
