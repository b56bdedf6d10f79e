import { ciOfRenamed, ciRecorded } from './ci-fold.js';
import type { StoryEvent } from '../../events/storymap/index.js';
import type { BuildRecord, Plan } from '../../events/storymap/build-record.js';
import { setOwn } from '../../events/own.js';

/**
 * A story's building record folded from its stream. One fold, shared by the decider
 * (src/commands/storymap) and the read model (src/projections/storymap/stories.ts), so what
 * get_story shows is exactly what the next command decides on.
 */
type Of<T extends StoryEvent['type']> = Extract<StoryEvent, { type: T }>['data'];

/** Any write by the claim's own session keeps the claim alive. */
const seen = (b: BuildRecord, session: string | null, at: string): BuildRecord =>
  b.claim && session !== null && b.claim.session_id === session
    ? { ...b, claim: { ...b.claim, last_seen_at: at } }
    : b;

/** The number of a step id `s7`; 0 for any other id. */
export const stepNumber = (id: string): number => Number(/^s(\d+)$/.exec(id)?.[1] ?? 0);

/** The plan a `story.plan_saved` makes: awaiting review, its step numbers never reused. */
export const savedPlan = (previous: Plan | null, d: Of<'story.plan_saved'>): Plan => ({
  version: d.plan_version,
  steps: d.steps,
  last_step: Math.max(previous?.last_step ?? 0, ...d.steps.map((x) => stepNumber(x.id))),
  questions: d.questions,
  risk: d.risk,
  review: 'awaiting',
  conflicts: d.conflicts,
  saved_by: d.by,
  saved_at: d.at,
  reviewed_by: null,
  reviewed_at: null,
  spec_changed_since_approval: false,
});

const planSaved = (b: BuildRecord, d: Of<'story.plan_saved'>): BuildRecord => {
  const answered = new Map(d.responses.map((r) => [r.feedback_id, r.reply]));
  return {
    ...b,
    plan: savedPlan(b.plan, d),
    feedback: b.feedback.map((f) =>
      answered.has(f.feedback_id) ? { ...f, reply: answered.get(f.feedback_id)! } : f,
    ),
  };
};

const planReviewed = (b: BuildRecord, d: Of<'story.plan_reviewed'>): BuildRecord => {
  if (!b.plan) return b;
  const feedback = d.feedback.map((f) => ({
    ...f,
    plan_version: d.plan_version,
    requested_by: d.by,
    requested_at: d.at,
    reply: null,
  }));
  return {
    ...b,
    plan: { ...b.plan, review: d.verdict, reviewed_by: d.by, reviewed_at: d.at },
    feedback: [...b.feedback, ...feedback],
  };
};

const stepEdited = (b: BuildRecord, d: Of<'story.plan_step_edited'>): BuildRecord => {
  if (!b.plan) return b;
  const steps = b.plan.steps.map((s) =>
    s.id === d.step_id ? { ...s, text: d.text, edited_by: d.by } : s,
  );
  return { ...b, plan: { ...b.plan, steps } };
};

const testsSaved = (b: BuildRecord, d: Of<'story.tests_saved'>): BuildRecord => {
  const updated = new Map(d.updated.map((t) => [t.test_id, t]));
  return {
    ...b,
    tests: [...b.tests.map((t) => updated.get(t.test_id) ?? t), ...d.added],
    ci: ciOfRenamed(b, updated),
  };
};

const reported = (b: BuildRecord, d: Of<'criteria.reported'>): BuildRecord => {
  const results = { ...b.results };
  for (const r of d.results)
    setOwn(results, r.criterion_id, {
      status: r.status,
      detail: r.detail,
      caveat: r.caveat,
      attempt: r.attempt,
      at: d.at,
      by: d.by,
    });
  return { ...b, results };
};

/** Criteria that left the story take their results and test links with them. */
const criteriaRemoved = (b: BuildRecord, removed: readonly string[]): BuildRecord => {
  if (removed.length === 0) return b;
  const gone = new Set(removed);
  const results = Object.fromEntries(Object.entries(b.results).filter(([id]) => !gone.has(id)));
  const tests = b.tests.map((t) => ({
    ...t,
    criterion_ids: t.criterion_ids.filter((id) => !gone.has(id)),
  }));
  return { ...b, results, tests };
};

const specMoved = (b: BuildRecord): BuildRecord =>
  b.plan?.review === 'approved'
    ? { ...b, plan: { ...b.plan, spec_changed_since_approval: true } }
    : b;

const clear = <T extends { cleared_at: string | null }>(
  items: readonly T[],
  match: (item: T) => boolean,
  cleared: Partial<T>,
): T[] => items.map((i) => (match(i) && i.cleared_at === null ? { ...i, ...cleared } : i));

const people = (b: BuildRecord, e: StoryEvent): BuildRecord => {
  switch (e.type) {
    case 'story.blocker_raised': {
      const { project_id: _p, story_id: _s, session_id: _x, by, at, ...blocker } = e.data;
      const raised = { ...blocker, raised_by: by, raised_at: at };
      const open = { cleared_at: null, cleared_by: null, decision: null };
      return { ...b, blockers: [...b.blockers, { ...raised, ...open }] };
    }
    case 'story.blocker_cleared': {
      const { blocker_id, decision, by, at } = e.data;
      const blockers = clear(b.blockers, (x) => x.blocker_id === blocker_id, {
        cleared_at: at,
        cleared_by: by,
        decision,
      });
      return { ...b, blockers };
    }
    case 'story.founder_needed': {
      const { project_id: _p, story_id: _s, session_id: _x, by, at, ...handoff } = e.data;
      const raised = { ...handoff, raised_by: by, raised_at: at };
      const open = { cleared_at: null, cleared_by: null, note: null };
      return { ...b, handoffs: [...b.handoffs, { ...raised, ...open }] };
    }
    case 'story.handoff_cleared': {
      const { handoff_id, note, by, at } = e.data;
      const handoffs = clear(b.handoffs, (x) => x.handoff_id === handoff_id, {
        cleared_at: at,
        cleared_by: by,
        note,
      });
      return { ...b, handoffs };
    }
    default:
      return b;
  }
};

const fold = (b: BuildRecord, e: StoryEvent): BuildRecord => {
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

/** The number at the end of a pull request's URL (`…/pull/123`), if it has one. */
export const prNumber = (url: string): number | null => {
  const match = /\/pull(?:s)?\/(\d+)(?:[/?#]|$)/.exec(url);
  return match ? Number(match[1]) : null;
};

/** One event of a story's stream folded into its building record. */
export const evolveBuild = (b: BuildRecord, e: StoryEvent): BuildRecord => {
  const next = fold(b, e);
  return 'session_id' in e.data && 'at' in e.data ? seen(next, e.data.session_id, e.data.at) : next;
};
