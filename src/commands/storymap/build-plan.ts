import type { PlanConflict, PlanStep } from '../../events/storymap/index.js';
import { type Plan } from '../../events/storymap/build-record.js';
import { invalidArgument, invalidState, notFound } from '../errors.js';
import { requireCapability, storyMapError, type Caller } from './access.js';
import { on, refuseCancelled } from './build-claim.js';
import { checkVersion } from './story.js';
import type { StoryEvent, StoryState } from './story-state.js';
import { unansweredIds } from './build-state.js';

export type StepInput = { id?: string; text: string; files?: string[] };
export type SavePlanData = {
  caller: Caller;
  session_id: string | null;
  now: string;
  steps: StepInput[];
  questions: { text: string; options?: string[] }[];
  risk: string | null;
  responses: { feedback_id: string; reply: string }[];
  expected_version?: number;
};

const stepIds = (plan: Plan | null) => plan?.steps.map((s) => s.id) ?? [];

/** Ids name steps of the current plan, once each; new steps get the next numbers. */
const numberSteps = (plan: Plan | null, steps: readonly StepInput[]): PlanStep[] => {
  const valid = new Set(stepIds(plan));
  const seen = new Set<string>();
  const problems: string[] = [];
  steps.forEach((s, i) => {
    if (!s.text.trim()) problems.push(`steps[${i}].text is empty`);
    if (s.id === undefined) return;
    if (!valid.has(s.id)) problems.push(`steps[${i}].id ${s.id} is not a step of the current plan`);
    else if (seen.has(s.id)) problems.push(`steps[${i}].id ${s.id} appears twice`);
    seen.add(s.id);
  });
  if (problems.length > 0)
    throw invalidArgument(`The plan was not saved: ${problems.join('; ')}.`, {
      problems,
      valid_step_ids: [...valid],
    });
  let next = plan?.last_step ?? 0;
  const current = new Map(plan?.steps.map((s) => [s.id, s]));
  return steps.map((s) => ({
    id: s.id ?? `s${++next}`,
    text: s.text.trim(),
    files: [...new Set(s.files ?? [])],
    edited_by: (s.id !== undefined && current.get(s.id)?.edited_by) || null,
  }));
};

/**
 * Steps a person edited keep their words: a saved step with their id and other words, or no
 * such step, is a conflict. The save goes through (the agent may know better); the reviewer
 * sees each conflict, and the reworded step no longer counts as the person's.
 */
const conflictsOf = (plan: Plan | null, saved: PlanStep[]) => {
  const conflicts: PlanConflict[] = [];
  const steps = saved.map((step) => {
    const before = plan?.steps.find((s) => s.id === step.id);
    if (!before?.edited_by || before.text === step.text) return step;
    conflicts.push({
      step_id: step.id,
      kind: 'reworded',
      person_text: before.text,
      saved_text: step.text,
      edited_by: before.edited_by,
    });
    return { ...step, edited_by: null };
  });
  for (const before of plan?.steps ?? [])
    if (before.edited_by && !saved.some((s) => s.id === before.id))
      conflicts.push({
        step_id: before.id,
        kind: 'dropped',
        person_text: before.text,
        saved_text: null,
        edited_by: before.edited_by,
      });
  return { steps, conflicts };
};

/** When changes were requested, every open feedback point needs a response. */
const checkResponses = (s: StoryState, responses: SavePlanData['responses']) => {
  const known = s.build.feedback;
  const unknown = responses.filter((r) => !known.has(r.feedback_id)).map((r) => r.feedback_id);
  if (unknown.length > 0)
    throw invalidArgument(`No feedback ${unknown.join(', ')} on ${s.key}.`, {
      unknown_feedback_ids: unknown,
      valid_feedback_ids: [...known.keys()],
    });
  if (s.build.plan?.review !== 'changes_requested') return;
  const answered = new Set(responses.filter((r) => r.reply.trim()).map((r) => r.feedback_id));
  const open = unansweredIds(s.build)
    .filter((id) => !answered.has(id))
    .map((id) => s.build.feedback.get(id)!);
  if (open.length > 0)
    throw storyMapError(
      'FEEDBACK_UNANSWERED',
      `FEEDBACK_UNANSWERED: changes were requested on ${s.key}'s plan; answer every point in responses (${open.map((f) => f.feedback_id).join(', ')}).`,
      { plan_feedback: open },
    );
};

export const decideSavePlan = (s: StoryState, d: SavePlanData): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  checkVersion(s, d.expected_version);
  if (d.steps.length === 0) throw invalidArgument('steps must list at least one step');
  const plan = s.build.plan;
  const numbered = numberSteps(plan, d.steps);
  checkResponses(s, d.responses);
  const { steps, conflicts } = conflictsOf(plan, numbered);
  return [
    {
      type: 'story.plan_saved',
      data: {
        ...on(s),
        plan_version: (plan?.version ?? 0) + 1,
        steps,
        questions: d.questions.map((q) => ({ text: q.text.trim(), options: q.options ?? [] })),
        risk: d.risk?.trim() || null,
        responses: d.responses.map((r) => ({ feedback_id: r.feedback_id, reply: r.reply.trim() })),
        conflicts,
        session_id: d.session_id,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};

const requirePlan = (s: StoryState): Plan => {
  if (!s.build.plan)
    throw invalidState(`${s.key} has no plan yet: an agent saves one with save_plan.`, {
      story_id: s.story_id,
    });
  return s.build.plan;
};

export type ReviewPlanData = {
  caller: Caller;
  now: string;
  verdict: 'approved' | 'changes_requested';
  points: { text: string; step_id?: string }[];
};

/** The founder approves the current plan, or requests changes as numbered feedback points. */
export const decideReviewPlan = (s: StoryState, d: ReviewPlanData): StoryEvent[] => {
  requireCapability(d.caller, 'own');
  const plan = requirePlan(s);
  if (d.verdict === 'approved' && plan.review === 'approved' && !plan.spec_changed_since_approval)
    return [];
  const points = d.points.filter((p) => p.text.trim());
  if (d.verdict === 'changes_requested' && points.length === 0)
    throw invalidArgument('Requesting changes needs at least one feedback point.');
  const ids = new Set(stepIds(plan));
  const badStep = points.find((p) => p.step_id !== undefined && !ids.has(p.step_id));
  if (badStep)
    throw invalidArgument(`No step ${badStep.step_id} in plan version ${plan.version}.`, {
      valid_step_ids: [...ids],
    });
  let n = s.build.feedback.size;
  const feedback = points.map((p) => ({
    feedback_id: `f${++n}`,
    text: p.text.trim(),
    step_id: p.step_id ?? null,
  }));
  return [
    {
      type: 'story.plan_reviewed',
      data: {
        ...on(s),
        plan_version: plan.version,
        verdict: d.verdict,
        feedback,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};

/** The founder rewords one step; later saves must keep those words (or are flagged). */
export const decideEditStep = (
  s: StoryState,
  d: { caller: Caller; now: string; step_id: string; text: string },
): StoryEvent[] => {
  requireCapability(d.caller, 'own');
  const plan = requirePlan(s);
  const step = plan.steps.find((x) => x.id === d.step_id);
  if (!step)
    throw notFound(`No step ${d.step_id} in ${s.key}'s plan.`, { valid_step_ids: stepIds(plan) });
  const text = d.text.trim();
  if (!text) throw invalidArgument('text must be a non-empty string', { field: 'text' });
  if (text === step.text && step.edited_by) return [];
  return [
    {
      type: 'story.plan_step_edited',
      data: {
        ...on(s),
        plan_version: plan.version,
        step_id: step.id,
        text,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};
