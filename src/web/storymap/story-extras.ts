import { z } from 'zod';

/**
 * What a story's view may carry beyond part 1 (plans, tests, criterion results: the building
 * loop, contracts/storymap.md get_story). Read leniently, by the contract's field names, so the
 * story page shows them as soon as the read model holds them and shows nothing it cannot read.
 */
const Result = z
  .object({
    status: z.string(),
    detail: z.string().nullish(),
    caveat: z.string().nullish(),
    attempt: z.number().nullish(),
    at: z.string().nullish(),
    reported_at: z.string().nullish(),
  })
  .loose();

const Step = z
  .object({ id: z.string().nullish(), text: z.string(), files: z.array(z.string()).nullish() })
  .loose();

const Feedback = z
  .object({
    feedback_id: z.string().nullish(),
    id: z.string().nullish(),
    text: z.string().nullish(),
    comment: z.string().nullish(),
    by: z.string().nullish(),
    reply: z.string().nullish(),
    status: z.string().nullish(),
  })
  .loose();

const Plan = z
  .object({
    version: z.number().nullish(),
    steps: z.array(Step).default([]),
    risk: z.string().nullish(),
    review: z.string().nullish(),
    status: z.string().nullish(),
    saved_at: z.string().nullish(),
    saved_by: z.string().nullish(),
    feedback: z.array(Feedback).nullish(),
    questions: z.array(z.object({ text: z.string() }).loose()).nullish(),
  })
  .loose();

const Test = z
  .object({
    id: z.string().nullish(),
    title: z.string(),
    test_type: z.string().nullish(),
    criterion_ids: z.array(z.string()).nullish(),
    file: z.string().nullish(),
    full_name: z.string().nullish(),
  })
  .loose();

const Extras = z
  .object({
    acceptance_criteria: z
      .array(z.object({ id: z.string(), last_result: Result.nullish() }).loose())
      .catch([]),
    plan: Plan.nullish().catch(null),
    plans: z.array(Plan).nullish().catch(null),
    plan_versions: z.array(Plan).nullish().catch(null),
    plan_feedback: z.array(Feedback).nullish().catch(null),
    tests: z.array(Test).nullish().catch(null),
    implementation_plan: z.string().nullish().catch(null),
  })
  .loose();

export type PlanView = z.infer<typeof Plan>;
export type FeedbackView = z.infer<typeof Feedback>;
export type TestView = z.infer<typeof Test>;
export type ResultView = z.infer<typeof Result>;

/**
 * The building loop keeps a story's plan, feedback and tests under `build` (BuildRecord): read
 * them by the contract's names, as get_story shows them.
 */
const withBuild = (view: unknown): unknown => {
  const parsed = z
    .object({
      build: z.object({ plan: z.unknown(), feedback: z.unknown(), tests: z.unknown() }).loose(),
    })
    .loose()
    .safeParse(view);
  if (!parsed.success) return view;
  const { plan, feedback, tests } = parsed.data.build;
  return { ...parsed.data, plan, plan_feedback: feedback, tests };
};

/** The extras of a story view: plan versions (newest last), feedback, tests, results by criterion. */
export const storyExtras = (view: unknown) => {
  const parsed = Extras.safeParse(withBuild(view));
  if (!parsed.success)
    return { plans: [], feedback: [], tests: [], results: new Map<string, ResultView>() };
  const e = parsed.data;
  const plans = e.plan_versions ?? e.plans ?? (e.plan ? [e.plan] : []);
  const results = new Map<string, ResultView>();
  for (const c of e.acceptance_criteria) if (c.last_result) results.set(c.id, c.last_result);
  return {
    plans,
    feedback: e.plan_feedback ?? [],
    tests: e.tests ?? [],
    results,
    implementation_plan: e.implementation_plan ?? null,
  };
};
