import type { StoryEvent, StoryTest } from '../../events/storymap/index.js';
import { PersistentMap } from '../persistent-map.js';
import { CI_REPORTS_KEPT } from './ci-fold.js';
import { prNumber, savedPlan } from './build-fold.js';
import { nameKey, type BuildState } from './build-state.js';

/**
 * One event of a story's stream into the decider's building record (build-state.ts): the same
 * record build-fold.ts folds into arrays, each change an entry of a map. What an event changes
 * is what it names (its tests, results, feedback, blocker), never a walk over the history.
 */
type Of<T extends StoryEvent['type']> = Extract<StoryEvent, { type: T }>['data'];

const seen = (b: BuildState, session: string | null, at: string): BuildState =>
  b.claim && session !== null && b.claim.session_id === session
    ? { ...b, claim: { ...b.claim, last_seen_at: at } }
    : b;

const nameOf = (t: StoryTest) => (t.full_name === null ? undefined : nameKey(t.file, t.full_name));

/** `b`'s test indexes without `before`'s entries, then with `after`'s. */
const reindex = (b: BuildState, before: StoryTest | undefined, after: StoryTest): BuildState => {
  let { testsOf, unlinked, byName } = b;
  const id = after.test_id;
  const ordinal = b.ordinals.get(id) ?? b.ordinals.size;
  const ordinals = b.ordinals.has(id) ? b.ordinals : b.ordinals.with(id, ordinal);
  const was = new Set(before?.criterion_ids ?? []);
  const now = new Set(after.criterion_ids);
  for (const c of was)
    if (!now.has(c)) {
      const left = testsOf.get(c)!.with(id, undefined);
      testsOf = testsOf.with(c, left.size === 0 ? undefined : left);
    }
  for (const c of now)
    if (!was.has(c))
      testsOf = testsOf.with(c, (testsOf.get(c) ?? PersistentMap.empty()).with(id, true));
  if ((before?.criterion_ids.length ?? 0) === 0 && after.criterion_ids.length > 0)
    unlinked = unlinked.with(id, undefined);
  if (after.criterion_ids.length === 0 && (before === undefined || before.criterion_ids.length > 0))
    unlinked = unlinked.with(id, true);
  const [from, to] = [before && nameOf(before), nameOf(after)];
  if (from !== to) {
    if (from !== undefined) {
      const left = byName.get(from)!.filter((x) => x !== id);
      byName = byName.with(from, left.length === 0 ? undefined : left);
    }
    if (to !== undefined) {
      const ids = [...(byName.get(to) ?? []), id];
      const place = (x: string) => b.ordinals.get(x) ?? ordinal;
      byName = byName.with(to, ids.length === 1 ? ids : ids.sort((x, y) => place(x) - place(y)));
    }
  }
  return { ...b, testsOf, unlinked, byName, ordinals };
};

const putTest = (b: BuildState, t: StoryTest): BuildState => {
  const before = b.tests.get(t.test_id);
  return { ...reindex(b, before, t), tests: b.tests.with(t.test_id, t) };
};

const testsSaved = (b: BuildState, d: Of<'story.tests_saved'>): BuildState => {
  let next = b;
  for (const t of d.updated) {
    const before = next.tests.get(t.test_id);
    if (!before) continue;
    // a test that now names another file or full name is another CI test: its old result goes
    if (before.file !== t.file || before.full_name !== t.full_name)
      next = { ...next, ci: next.ci.with(t.test_id, undefined) };
    next = putTest(next, t);
  }
  for (const t of d.added) next = putTest(next, t);
  return next;
};

const planSaved = (b: BuildState, d: Of<'story.plan_saved'>): BuildState => {
  let { feedback, unanswered } = b;
  for (const r of d.responses) {
    const f = feedback.get(r.feedback_id);
    if (!f) continue;
    feedback = feedback.with(f.feedback_id, { ...f, reply: r.reply });
    unanswered = unanswered.with(f.feedback_id, undefined);
  }
  const plan = savedPlan(b.plan, d);
  return { ...b, plan, feedback, unanswered };
};

const planReviewed = (b: BuildState, d: Of<'story.plan_reviewed'>): BuildState => {
  if (!b.plan) return b;
  let { feedback, unanswered } = b;
  for (const f of d.feedback) {
    const point = { ...f, plan_version: d.plan_version, requested_by: d.by, requested_at: d.at };
    feedback = feedback.with(f.feedback_id, { ...point, reply: null });
    unanswered = unanswered.with(f.feedback_id, feedback.size);
  }
  const plan = { ...b.plan, review: d.verdict, reviewed_by: d.by, reviewed_at: d.at };
  return { ...b, plan, feedback, unanswered };
};

const stepEdited = (b: BuildState, d: Of<'story.plan_step_edited'>): BuildState => {
  if (!b.plan) return b;
  const steps = b.plan.steps.map((s) =>
    s.id === d.step_id ? { ...s, text: d.text, edited_by: d.by } : s,
  );
  return { ...b, plan: { ...b.plan, steps } };
};

const reported = (b: BuildState, d: Of<'criteria.reported'>): BuildState => {
  let results = b.results;
  for (const r of d.results) {
    const { status, detail, caveat, attempt } = r;
    results = results.with(r.criterion_id, { status, detail, caveat, attempt, at: d.at, by: d.by });
  }
  return { ...b, results };
};

const ciRecorded = (b: BuildState, d: Of<'story.ci_results_recorded'>): BuildState => {
  let ci = b.ci;
  for (const r of d.results) {
    const { status, message } = r;
    ci = ci.with(r.test_id, {
      status,
      message,
      report_id: d.report_id,
      run_at: d.run_at,
      at: d.at,
    });
  }
  return { ...b, ci, ci_reports: [...b.ci_reports, d.report_id].slice(-CI_REPORTS_KEPT) };
};

/** Criteria that left the story take their results and test links with them. */
const criteriaRemoved = (b: BuildState, removed: readonly string[]): BuildState => {
  let next = b;
  for (const c of removed) {
    next = { ...next, results: next.results.with(c, undefined) };
    for (const id of [...(next.testsOf.get(c)?.keys() ?? [])]) {
      const t = next.tests.get(id)!;
      next = putTest(next, { ...t, criterion_ids: t.criterion_ids.filter((x) => x !== c) });
    }
  }
  return next;
};

const specMoved = (b: BuildState): BuildState =>
  b.plan?.review === 'approved'
    ? { ...b, plan: { ...b.plan, spec_changed_since_approval: true } }
    : b;

const people = (b: BuildState, e: StoryEvent): BuildState => {
  switch (e.type) {
    case 'story.blocker_raised': {
      const { project_id: _p, story_id: _s, session_id: _x, by, at, ...blocker } = e.data;
      const raised = { ...blocker, raised_by: by, raised_at: at };
      const open = { cleared_at: null, cleared_by: null, decision: null };
      return {
        ...b,
        blockers: b.blockers.with(blocker.blocker_id, { ...raised, ...open }),
        openBlockers: b.openBlockers.with(blocker.blocker_id, b.blockers.size),
      };
    }
    case 'story.blocker_cleared': {
      const { blocker_id, decision, by, at } = e.data;
      const x = b.blockers.get(blocker_id);
      if (!x || x.cleared_at !== null) return b;
      const cleared = { ...x, cleared_at: at, cleared_by: by, decision };
      return {
        ...b,
        blockers: b.blockers.with(blocker_id, cleared),
        openBlockers: b.openBlockers.with(blocker_id, undefined),
      };
    }
    case 'story.founder_needed': {
      const { project_id: _p, story_id: _s, session_id: _x, by, at, ...handoff } = e.data;
      const raised = { ...handoff, raised_by: by, raised_at: at };
      const open = { cleared_at: null, cleared_by: null, note: null };
      return {
        ...b,
        handoffs: b.handoffs.with(handoff.handoff_id, { ...raised, ...open }),
        openHandoffs: b.openHandoffs.with(handoff.handoff_id, b.handoffs.size),
      };
    }
    case 'story.handoff_cleared': {
      const { handoff_id, note, by, at } = e.data;
      const x = b.handoffs.get(handoff_id);
      if (!x || x.cleared_at !== null) return b;
      const cleared = { ...x, cleared_at: at, cleared_by: by, note };
      return {
        ...b,
        handoffs: b.handoffs.with(handoff_id, cleared),
        openHandoffs: b.openHandoffs.with(handoff_id, undefined),
      };
    }
    default:
      return b;
  }
};

const fold = (b: BuildState, e: StoryEvent): BuildState => {
  switch (e.type) {
    case 'story.claimed': {
      const { session_id, client, by, at } = e.data;
      return { ...b, claim: { session_id, by, client, claimed_at: at, last_seen_at: at } };
    }
    case 'story.claim_released':
      return b.claim?.session_id === e.data.session_id ? { ...b, claim: null } : b;
    case 'story.plan_saved':
      return planSaved(b, e.data);
    case 'story.plan_reviewed':
      return planReviewed(b, e.data);
    case 'story.plan_step_edited':
      return stepEdited(b, e.data);
    case 'story.tests_saved':
      return testsSaved(b, e.data);
    case 'criteria.reported':
      return reported(b, e.data);
    case 'story.completed':
      return {
        ...b,
        claim: null,
        completed_at: e.data.at,
        forced_unmet: e.data.unmet,
        ...(e.data.pr_url ? { pr_url: e.data.pr_url, pr_number: prNumber(e.data.pr_url) } : {}),
      };
    case 'story.pr_linked':
      return { ...b, pr_url: e.data.pr_url, pr_number: e.data.pr_number };
    case 'story.ci_results_recorded':
      return ciRecorded(b, e.data);
    case 'criteria.replaced':
      return specMoved(criteriaRemoved(b, e.data.removed));
    case 'criteria.added':
    case 'criterion.updated':
      return specMoved(b);
    case 'story.revised':
      return e.data.changes.title !== undefined ? specMoved(b) : b;
    default:
      return people(b, e);
  }
};

/** One event of a story's stream folded into the decider's building record. */
export const evolveBuildState = (b: BuildState, e: StoryEvent): BuildState => {
  const next = fold(b, e);
  return 'session_id' in e.data && 'at' in e.data ? seen(next, e.data.session_id, e.data.at) : next;
};
