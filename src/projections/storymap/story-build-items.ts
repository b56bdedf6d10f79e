import { prNumber, savedPlan } from '../../commands/storymap/build-fold.js';
import { CI_REPORTS_KEPT } from '../../commands/storymap/ci-fold.js';
import type { CiResult } from '../../events/storymap/build-record.js';
import type { StoryEvent } from '../../events/storymap/index.js';
import { own, setOwn } from '../../events/own.js';
import type { ModelTx } from '../projector.js';
import {
  StoryItemKeys as K,
  type CriterionFigures,
  type StoryHead,
  type StoryItems,
  type StoryList,
} from './story-head.js';

/**
 * One event of a story's stream into its head and items (story-head.ts): the building record
 * as build-fold.ts folds it, with each list's items under keys of their own and the figures a
 * criterion's evidence needs kept as counts. `h` is the fold's own copy of the head (its
 * `build`, `counts` and `figures` copied before the fold changes them). Two rare events read
 * the story's tests: criteria replaced (their links go) and a CI result that took away the
 * newest pass of a criterion several tests proved (the next newest is looked for).
 */
type Of<T extends StoryEvent['type']> = Extract<StoryEvent, { type: T }>['data'];
type Ctx = { h: StoryHead; tx: ModelTx; p: string; s: string; stale: Set<string> };

const failing = (ci: CiResult | undefined) => ci?.status === 'fail' || ci?.status === 'error';
const zero = (): CriterionFigures => ({
  tests: 0,
  failing: 0,
  ci_pass_at: null,
  ci_pass_holders: 0,
});

const figuresOf = (c: Ctx, criterion: string): CriterionFigures => {
  const known = own(c.h.figures, criterion);
  const next = known ? { ...known } : zero();
  setOwn(c.h.figures, criterion, next);
  return next;
};

/** A linked test's CI result counted in (+1) or out (-1) of a criterion's figures. */
const countCi = (c: Ctx, criterion: string, ci: CiResult | undefined, sign: 1 | -1) => {
  if (!ci) return;
  const f = figuresOf(c, criterion);
  if (failing(ci)) f.failing += sign;
  if (ci.status !== 'pass') return;
  if (sign === 1) {
    if (f.ci_pass_at === null || ci.at > f.ci_pass_at)
      [f.ci_pass_at, f.ci_pass_holders] = [ci.at, 1];
    else if (ci.at === f.ci_pass_at) f.ci_pass_holders++;
  } else if (ci.at === f.ci_pass_at && --f.ci_pass_holders === 0) c.stale.add(criterion);
};

const link = (c: Ctx, criterion: string, ci: CiResult | undefined, sign: 1 | -1) => {
  figuresOf(c, criterion).tests += sign;
  countCi(c, criterion, ci, sign);
};

const get = <L extends StoryList>(c: Ctx, list: L, n: number) =>
  c.tx.get<StoryItems[L]>(K.item(list, c.p, c.s, n));
const put = <L extends StoryList>(c: Ctx, list: L, n: number, item: StoryItems[L]) =>
  c.tx.put(K.item(list, c.p, c.s, n), item);
const placeOf = (c: Ctx, list: StoryList, id: string) =>
  c.tx.get<number>(K.place(list, c.p, c.s, id));

/** A new item at the end of its list, found by `id` when it has one. */
const append = <L extends StoryList>(c: Ctx, list: L, item: StoryItems[L], id?: string) => {
  const n = c.h.counts[list]++;
  put(c, list, n, item);
  if (id !== undefined) c.tx.put(K.place(list, c.p, c.s, id), n);
};

/** Every test of the story with its place (the two rare events above). */
const allTests = async (c: Ctx) =>
  Promise.all(
    Array.from(
      { length: c.h.counts.tests },
      async (_, n) => [n, (await get(c, 'tests', n))!] as const,
    ),
  );

const testsSaved = async (c: Ctx, d: Of<'story.tests_saved'>) => {
  for (const t of d.updated) {
    const n = await placeOf(c, 'tests', t.test_id);
    if (n === undefined) continue;
    const before = (await get(c, 'tests', n))!;
    const ci = await c.tx.get<CiResult>(K.ci(c.p, c.s, t.test_id));
    // a test that now names another file or full name is another CI test: its old result goes
    const renamed = before.file !== t.file || before.full_name !== t.full_name;
    if (renamed && ci) c.tx.del(K.ci(c.p, c.s, t.test_id));
    for (const x of before.criterion_ids) link(c, x, ci, -1);
    for (const x of t.criterion_ids) link(c, x, renamed ? undefined : ci, 1);
    put(c, 'tests', n, t);
  }
  for (const t of d.added) {
    const ci = await c.tx.get<CiResult>(K.ci(c.p, c.s, t.test_id));
    for (const x of t.criterion_ids) link(c, x, ci, 1);
    append(c, 'tests', t, t.test_id);
  }
};

const ciRecorded = async (c: Ctx, d: Of<'story.ci_results_recorded'>) => {
  for (const r of d.results) {
    const key = K.ci(c.p, c.s, r.test_id);
    const before = await c.tx.get<CiResult>(key);
    const { status, message } = r;
    const after = { status, message, report_id: d.report_id, run_at: d.run_at, at: d.at };
    c.tx.put(key, after);
    const n = await placeOf(c, 'tests', r.test_id);
    const test = n === undefined ? undefined : await get(c, 'tests', n);
    for (const x of test?.criterion_ids ?? []) {
      countCi(c, x, before, -1);
      countCi(c, x, after, 1);
    }
  }
  const reports = [...c.h.build.ci_reports, d.report_id].slice(-CI_REPORTS_KEPT);
  c.h.build = { ...c.h.build, ci_reports: reports };
};

/** Criteria that left the story take their results, figures and test links with them. */
const criteriaRemoved = async (c: Ctx, removed: readonly string[]) => {
  if (removed.length === 0) return;
  const gone = new Set(removed);
  c.h.build = {
    ...c.h.build,
    results: Object.fromEntries(Object.entries(c.h.build.results).filter(([x]) => !gone.has(x))),
  };
  c.h.figures = Object.fromEntries(Object.entries(c.h.figures).filter(([x]) => !gone.has(x)));
  for (const [n, t] of await allTests(c))
    if (t.criterion_ids.some((x) => gone.has(x)))
      put(c, 'tests', n, { ...t, criterion_ids: t.criterion_ids.filter((x) => !gone.has(x)) });
};

/** The newest CI pass of each criterion whose holders all went, looked for again. */
const refreshPasses = async (c: Ctx) => {
  if (c.stale.size === 0) return;
  const found = new Map<string, CriterionFigures>();
  for (const [, t] of await allTests(c)) {
    const wanted = t.criterion_ids.filter((x) => c.stale.has(x) && own(c.h.figures, x));
    if (wanted.length === 0) continue;
    const ci = await c.tx.get<CiResult>(K.ci(c.p, c.s, t.test_id));
    if (ci?.status !== 'pass') continue;
    for (const x of wanted) {
      const f = found.get(x) ?? zero();
      if (f.ci_pass_at === null || ci.at > f.ci_pass_at)
        [f.ci_pass_at, f.ci_pass_holders] = [ci.at, 1];
      else if (ci.at === f.ci_pass_at) f.ci_pass_holders++;
      found.set(x, f);
    }
  }
  for (const x of c.stale) {
    if (!own(c.h.figures, x)) continue;
    const f = figuresOf(c, x);
    const pass = found.get(x);
    [f.ci_pass_at, f.ci_pass_holders] = [pass?.ci_pass_at ?? null, pass?.ci_pass_holders ?? 0];
  }
};

const planSaved = async (c: Ctx, d: Of<'story.plan_saved'>) => {
  for (const r of d.responses) {
    const n = await placeOf(c, 'feedback', r.feedback_id);
    const f = n === undefined ? undefined : await get(c, 'feedback', n);
    if (f) put(c, 'feedback', n!, { ...f, reply: r.reply });
  }
  const b = c.h.build;
  c.h.build = {
    ...b,
    plan: savedPlan(b.plan, d),
  };
};

const planReviewed = (c: Ctx, d: Of<'story.plan_reviewed'>) => {
  const plan = c.h.build.plan;
  if (!plan) return;
  for (const f of d.feedback) {
    const point = { ...f, plan_version: d.plan_version, requested_by: d.by, requested_at: d.at };
    append(c, 'feedback', { ...point, reply: null }, f.feedback_id);
  }
  const reviewed = { ...plan, review: d.verdict, reviewed_by: d.by, reviewed_at: d.at };
  c.h.build = { ...c.h.build, plan: reviewed };
};

/** Clears the open item `id` of `list`, if it is open. */
const clear = async <L extends 'blockers' | 'handoffs'>(
  c: Ctx,
  list: L,
  id: string,
  cleared: Partial<StoryItems[L]>,
) => {
  const n = await placeOf(c, list, id);
  const item = n === undefined ? undefined : await get(c, list, n);
  if (item && item.cleared_at === null) put(c, list, n!, { ...item, ...cleared });
};

const people = async (c: Ctx, e: StoryEvent) => {
  switch (e.type) {
    case 'story.blocker_raised': {
      const { project_id: _p, story_id: _s, session_id: _x, by, at, ...blocker } = e.data;
      const open = { cleared_at: null, cleared_by: null, decision: null };
      const item = { ...blocker, raised_by: by, raised_at: at, ...open };
      return append(c, 'blockers', item, blocker.blocker_id);
    }
    case 'story.blocker_cleared': {
      const { blocker_id, decision, by, at } = e.data;
      return clear(c, 'blockers', blocker_id, { cleared_at: at, cleared_by: by, decision });
    }
    case 'story.founder_needed': {
      const { project_id: _p, story_id: _s, session_id: _x, by, at, ...handoff } = e.data;
      const open = { cleared_at: null, cleared_by: null, note: null };
      const item = { ...handoff, raised_by: by, raised_at: at, ...open };
      return append(c, 'handoffs', item, handoff.handoff_id);
    }
    case 'story.handoff_cleared': {
      const { handoff_id, note, by, at } = e.data;
      return clear(c, 'handoffs', handoff_id, { cleared_at: at, cleared_by: by, note });
    }
    default:
      return;
  }
};

const specMoved = (c: Ctx) => {
  const plan = c.h.build.plan;
  if (plan?.review === 'approved')
    c.h.build = { ...c.h.build, plan: { ...plan, spec_changed_since_approval: true } };
};

const fold = async (c: Ctx, e: StoryEvent): Promise<void> => {
  const b = c.h.build;
  switch (e.type) {
    case 'story.claimed': {
      const { session_id, client, by, at } = e.data;
      c.h.build = { ...b, claim: { session_id, by, client, claimed_at: at, last_seen_at: at } };
      return;
    }
    case 'story.claim_released':
      if (b.claim?.session_id === e.data.session_id) c.h.build = { ...b, claim: null };
      return;
    case 'story.plan_saved':
      return planSaved(c, e.data);
    case 'story.plan_reviewed':
      return planReviewed(c, e.data);
    case 'story.plan_step_edited': {
      if (!b.plan) return;
      const steps = b.plan.steps.map((s) =>
        s.id === e.data.step_id ? { ...s, text: e.data.text, edited_by: e.data.by } : s,
      );
      c.h.build = { ...b, plan: { ...b.plan, steps } };
      return;
    }
    case 'story.tests_saved':
      return testsSaved(c, e.data);
    case 'criteria.reported': {
      const results = { ...b.results };
      for (const r of e.data.results) {
        const { status, detail, caveat, attempt } = r;
        setOwn(results, r.criterion_id, {
          status,
          detail,
          caveat,
          attempt,
          at: e.data.at,
          by: e.data.by,
        });
      }
      c.h.build = { ...b, results };
      return;
    }
    case 'story.completed': {
      const d = e.data;
      const pr = d.pr_url ? { pr_url: d.pr_url, pr_number: prNumber(d.pr_url) } : {};
      c.h.build = { ...b, claim: null, completed_at: d.at, forced_unmet: d.unmet, ...pr };
      return;
    }
    case 'story.pr_linked':
      c.h.build = { ...b, pr_url: e.data.pr_url, pr_number: e.data.pr_number };
      return;
    case 'story.ci_results_recorded':
      return ciRecorded(c, e.data);
    case 'criteria.replaced':
      await criteriaRemoved(c, e.data.removed);
      return specMoved(c);
    case 'criteria.added':
    case 'criterion.updated':
      return specMoved(c);
    case 'story.revised':
      if (e.data.changes.title !== undefined) specMoved(c);
      return;
    default:
      return people(c, e);
  }
};

/** One event of the story's stream into `h` (its copy, changed in place) and its items. */
export const foldBuildItems = async (h: StoryHead, e: StoryEvent, tx: ModelTx): Promise<void> => {
  const c: Ctx = { h, tx, p: h.project_id, s: h.id, stale: new Set() };
  h.counts = { ...h.counts };
  h.figures = { ...h.figures };
  await fold(c, e);
  await refreshPasses(c);
  const claim = h.build.claim;
  if ('session_id' in e.data && 'at' in e.data && claim && claim.session_id === e.data.session_id)
    h.build = { ...h.build, claim: { ...claim, last_seen_at: e.data.at } };
};

/** A status change appended to the story's history. */
export const appendHistory = (h: StoryHead, change: StoryItems['history'], tx: ModelTx): void => {
  const n = h.counts.history;
  h.counts = { ...h.counts, history: n + 1 };
  tx.put(K.item('history', h.project_id, h.id, n), change);
};
