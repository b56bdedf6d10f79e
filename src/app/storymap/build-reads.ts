import { isQuiet, QUIET_MS } from '../../commands/storymap/build-claim.js';
import {
  openBlockers,
  openHandoffs,
  type BuildRecord,
  type Plan,
} from '../../events/storymap/build-record.js';
import type { PlanConflict } from '../../events/storymap/index.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import type { OrderRow } from '../../projections/storymap/order.js';
import type { StoryView } from '../../projections/storymap/views.js';
import type { WorkedStory } from './build-index.js';
import type { StoryMapReads } from './read.js';
import { ciOf } from '../../events/storymap/build-record.js';

/** Who holds the story: `held` while the holder writes, `stalled` once it has been quiet. */
export const claimOf = (build: Pick<BuildRecord, 'claim'>, now: string) =>
  build.claim && {
    session_id: build.claim.session_id,
    by: build.claim.by,
    client: build.claim.client,
    claimed_at: build.claim.claimed_at,
    last_seen_at: build.claim.last_seen_at,
    state: isQuiet(build.claim, now, QUIET_MS) ? ('stalled' as const) : ('held' as const),
  };

/** The plan as the answers show it. */
export const planView = (plan: Plan | null) =>
  plan && {
    version: plan.version,
    steps: plan.steps,
    questions: plan.questions,
    risk: plan.risk,
    review: plan.review,
    saved_by: plan.saved_by,
    saved_at: plan.saved_at,
    reviewed_by: plan.reviewed_by,
    reviewed_at: plan.reviewed_at,
    spec_changed_since_approval: plan.spec_changed_since_approval,
  };

/** The plan as get_story and start_story show it, with its feedback and warnings. */
export const planOf = (build: BuildRecord) => ({
  plan: planView(build.plan),
  plan_feedback: build.feedback,
  plan_warnings: (build.plan?.conflicts ?? []).map(conflictWarning),
});

export const conflictWarning = (c: PlanConflict) =>
  c.kind === 'reworded'
    ? `Step ${c.step_id} was written by ${c.edited_by} ("${c.person_text}") and this save reworded it ("${c.saved_text}"): recorded as a conflict for the reviewer.`
    : `Step ${c.step_id} was written by ${c.edited_by} ("${c.person_text}") and this save dropped it: recorded as a conflict for the reviewer.`;

/** Untested criteria and tests proving nothing, as get_story shows them (save_tests: `coverage`). */
const coverageOf = (v: StoryView) => {
  const linked = new Set(v.build.tests.flatMap((t) => t.criterion_ids));
  return {
    untested_criteria: v.acceptance_criteria.filter((c) => !linked.has(c.id)).map((c) => c.id),
    unlinked_tests: v.build.tests.filter((t) => t.criterion_ids.length === 0).map((t) => t.test_id),
  };
};

/** The building loop's part of get_story. */
export const buildDetail = (v: StoryView, now: string) => {
  return {
    claim: claimOf(v.build, now),
    // each test with its latest CI result (a JUnit import), or null
    tests: v.build.tests.map((t) => ({ ...t, ci: ciOf(v.build, t.test_id) ?? null })),
    test_coverage: coverageOf(v),
    ...planOf(v.build),
    implementation_plan: null,
    blockers: v.build.blockers,
    needs_founder: v.build.handoffs,
    pr_url: v.build.pr_url,
    pr_number: v.build.pr_number,
  };
};

export const planFiles = (v: StoryView) =>
  new Set(v.build.plan?.steps.flatMap((s) => s.files) ?? []);
const overlap = (a: ReadonlySet<string>, b: readonly string[]) => b.filter((f) => a.has(f));

/** Views of the live rows matching `keep`, read in parallel. */
const viewsOf = async (
  reads: StoryMapReads,
  projectId: string,
  rows: readonly OrderRow[],
  keep: (r: OrderRow) => boolean,
) =>
  (
    await Promise.all(
      rows
        .filter((r) => r.cancelled_at === null && keep(r))
        .map((r) => reads.story(projectId, r.id)),
    )
  ).filter((x): x is StoryView => x !== undefined);

/** Built stories whose implemented files this story's plan (or files) touches. */
export const builtOverlaps = (
  worked: { built: readonly WorkedStory[] },
  v: StoryView,
  files: ReadonlySet<string>,
) =>
  files.size === 0
    ? []
    : worked.built
        .filter((b) => b.id !== v.id)
        .map((b) => ({ id: b.id, key: b.key, title: b.title, files: overlap(files, b.files) }))
        .filter((b) => b.files.length > 0);

/** Stories other sessions are building whose plans touch these files. */
export const plannedOverlaps = (
  worked: { building: readonly WorkedStory[] },
  v: StoryView,
  files: ReadonlySet<string>,
) => {
  const building = worked.building.filter((b) => b.id !== v.id);
  return {
    building,
    overlaps: building
      .filter((b) => b.claimed_by !== null && b.claimed_by !== v.build.claim?.session_id)
      .map((b) => ({ id: b.id, key: b.key, files: overlap(files, b.files) }))
      .filter((b) => b.files.length > 0),
  };
};

/**
 * What the building loop leaves waiting on the founder: steps handed to them, blockers, plans
 * awaiting review (or approved before the spec changed). Each says how to clear it.
 */
export const buildTodoItems = async (
  reads: StoryMapReads,
  projectId: string,
  unblocks: (storyId: string) => number,
) => {
  const rows = await reads.rows(projectId);
  const views = await viewsOf(reads, projectId, rows, (r) => !isFinished(r));
  const cli = (what: string, key: string) => `intentlog founder ${what} ${projectId} ${key}`;
  return views.flatMap((v) => {
    const plan = v.build.plan;
    const base = { story_key: v.key, unblocks: unblocks(v.id) };
    return [
      ...openHandoffs(v.build).map((h) => ({
        ...base,
        kind: 'needs_founder',
        action: `${h.action} — then: ${cli('handoff done', v.key)} ${h.handoff_id}`,
        detail: h.detail ?? `${v.title}${h.step_id ? ` (step ${h.step_id})` : ''}`,
      })),
      ...openBlockers(v.build).map((b) => ({
        ...base,
        kind: 'blocker',
        action: `decide: ${b.decision_needed} — then: ${cli('blocker clear', v.key)} ${b.blocker_id} --decision "…"`,
        detail: `${b.summary}: ${b.failing}`,
      })),
      ...(plan && (plan.review === 'awaiting' || plan.spec_changed_since_approval)
        ? [
            {
              ...base,
              kind: 'plan',
              action: `review the plan: ${cli('plan approve', v.key)} (or plan request-changes … --point "…")`,
              detail:
                plan.review === 'awaiting'
                  ? `plan version ${plan.version} of ${v.title} awaits approval${plan.conflicts.length > 0 ? ` (${plan.conflicts.length} conflicts with your edits)` : ''}`
                  : `plan version ${plan.version} was approved before the spec changed`,
            },
          ]
        : []),
    ];
  });
};

/** Open blockers and hand-offs of the stories still to finish, for get_session_context. */
export const openWork = async (reads: StoryMapReads, projectId: string) => {
  const rows = await reads.rows(projectId);
  // only the stories with open work: reading every story's whole view cost ~90 ms on 2,000
  const views = await viewsOf(
    reads,
    projectId,
    rows,
    (r) => !isFinished(r) && r.open_work.length > 0,
  );
  return views.flatMap((v) => [
    ...openBlockers(v.build).map((b) => ({
      kind: 'blocker' as const,
      story_key: v.key,
      id: b.blocker_id,
      summary: b.summary,
      decision_needed: b.decision_needed,
      raised_at: b.raised_at,
    })),
    ...openHandoffs(v.build).map((h) => ({
      kind: 'needs_founder' as const,
      story_key: v.key,
      id: h.handoff_id,
      summary: h.action,
      decision_needed: null,
      raised_at: h.raised_at,
    })),
  ]);
};
