import { z } from 'zod';
import { defineEvent, type EventsOf } from '../catalog/define.js';
import { onStory } from './ids.js';

/*
 * The building loop (contracts/storymap.md, "Building a story"): claims, plans, tests, criteria
 * results, blockers, hand-offs to the founder, completion and pull requests. All live on the
 * story's own stream, so each story's rules are decided under its version; `story_session.*`
 * lives on one stream per MCP session, so "one story per session" is decided under that
 * session's version. `at` is the time the command was decided at (the app's clock): quiet
 * claims are judged against it, never against the store's wall clock.
 */
const byAt = { by: z.string(), at: z.string() };
const fromSession = { session_id: z.string().nullable() };

export const StoryClaimed = defineEvent(
  'story.claimed',
  z.object({
    ...onStory,
    session_id: z.string(),
    client: z.string().nullable(),
    took_over_from: z
      .object({ session_id: z.string(), by: z.string(), last_seen_at: z.string() })
      .nullable(),
    ...byAt,
  }),
);
export const StoryClaimReleased = defineEvent(
  'story.claim_released',
  z.object({
    ...onStory,
    session_id: z.string(),
    reason: z.enum(['released', 'founder']),
    ...byAt,
  }),
);

export const PlanStep = z.object({
  id: z.string(),
  text: z.string(),
  files: z.array(z.string()),
  /** the person whose words this step keeps (a founder edit), or null */
  edited_by: z.string().nullable(),
});
export type PlanStep = z.infer<typeof PlanStep>;
export const PlanQuestion = z.object({ text: z.string(), options: z.array(z.string()) });
export const PlanConflict = z.object({
  step_id: z.string(),
  kind: z.enum(['reworded', 'dropped']),
  person_text: z.string(),
  saved_text: z.string().nullable(),
  edited_by: z.string(),
});
export type PlanConflict = z.infer<typeof PlanConflict>;

export const PlanSaved = defineEvent(
  'story.plan_saved',
  z.object({
    ...onStory,
    plan_version: z.number().int().positive(),
    steps: z.array(PlanStep),
    questions: z.array(PlanQuestion),
    risk: z.string().nullable(),
    responses: z.array(z.object({ feedback_id: z.string(), reply: z.string() })),
    conflicts: z.array(PlanConflict),
    ...fromSession,
    ...byAt,
  }),
);
export const PlanReviewed = defineEvent(
  'story.plan_reviewed',
  z.object({
    ...onStory,
    plan_version: z.number().int().positive(),
    verdict: z.enum(['approved', 'changes_requested']),
    feedback: z.array(
      z.object({ feedback_id: z.string(), text: z.string(), step_id: z.string().nullable() }),
    ),
    ...byAt,
  }),
);
export const PlanStepEdited = defineEvent(
  'story.plan_step_edited',
  z.object({
    ...onStory,
    plan_version: z.number().int().positive(),
    step_id: z.string(),
    text: z.string(),
    ...byAt,
  }),
);

export const TestType = z.enum(['functional', 'edge_case', 'integration', 'error_handling']);
export const StoryTest = z.object({
  test_id: z.string(),
  title: z.string(),
  steps: z.string().nullable(),
  expected_result: z.string().nullable(),
  test_type: TestType,
  criterion_ids: z.array(z.string()),
  file: z.string().nullable(),
  full_name: z.string().nullable(),
});
export type StoryTest = z.infer<typeof StoryTest>;
export const TestsSaved = defineEvent(
  'story.tests_saved',
  z.object({
    ...onStory,
    added: z.array(StoryTest),
    /** existing tests whose links (and named fields) were set */
    updated: z.array(StoryTest),
    ...fromSession,
    ...byAt,
  }),
);

export const CriterionStatus = z.enum(['pass', 'fail', 'blocked']);
export type CriterionStatus = z.infer<typeof CriterionStatus>;
export const CriteriaReported = defineEvent(
  'criteria.reported',
  z.object({
    ...onStory,
    results: z.array(
      z.object({
        criterion_id: z.string(),
        status: CriterionStatus,
        detail: z.string().nullable(),
        caveat: z.string().nullable(),
        attempt: z.number().int().positive(),
      }),
    ),
    ...fromSession,
    ...byAt,
  }),
);

export const BlockerRaised = defineEvent(
  'story.blocker_raised',
  z.object({
    ...onStory,
    blocker_id: z.string(),
    summary: z.string(),
    attempting: z.string(),
    failing: z.string(),
    decision_needed: z.string(),
    criterion_id: z.string().nullable(),
    attempts: z.number().int().positive(),
    ...fromSession,
    ...byAt,
  }),
);
export const BlockerCleared = defineEvent(
  'story.blocker_cleared',
  z.object({ ...onStory, blocker_id: z.string(), decision: z.string().nullable(), ...byAt }),
);
export const FounderNeeded = defineEvent(
  'story.founder_needed',
  z.object({
    ...onStory,
    handoff_id: z.string(),
    action: z.string(),
    detail: z.string().nullable(),
    step_id: z.string().nullable(),
    ...fromSession,
    ...byAt,
  }),
);
export const HandoffCleared = defineEvent(
  'story.handoff_cleared',
  z.object({ ...onStory, handoff_id: z.string(), note: z.string().nullable(), ...byAt }),
);

export const StoryCompleted = defineEvent(
  'story.completed',
  z.object({
    ...onStory,
    summary: z.string(),
    implemented_files: z.array(z.string()),
    pr_url: z.string().nullable(),
    /** must criteria not passing when it was completed (only with force) */
    forced: z.boolean(),
    unmet: z.array(z.object({ criterion_id: z.string(), state: z.string() })),
    ...fromSession,
    ...byAt,
  }),
);
export const PrLinked = defineEvent(
  'story.pr_linked',
  z.object({
    ...onStory,
    pr_url: z.string(),
    pr_number: z.number().int().nullable(),
    ...fromSession,
    ...byAt,
  }),
);

/**
 * CI's results for the story's tests, from a JUnit report (`intentlog storymap junit`), matched
 * to the tests by file and full name. `report_id` is the report's content hash: a story records
 * a report once. `at` is when the ledger was told (the import), the time the results count from.
 */
export const CiStatus = z.enum(['pass', 'fail', 'error', 'skipped']);
export type CiStatus = z.infer<typeof CiStatus>;
export const CiResultsRecorded = defineEvent(
  'story.ci_results_recorded',
  z.object({
    ...onStory,
    report_id: z.string(),
    /** the report's own timestamp as written (often without a zone): shown, never compared */
    run_at: z.string().nullable(),
    results: z.array(
      z.object({
        test_id: z.string(),
        status: CiStatus,
        message: z.string().nullable(),
        /** how many of the report's cases matched this test (a parametrised test has several) */
        cases: z.number().int().positive(),
      }),
    ),
    ...byAt,
  }),
);

/** One MCP session's stream: which story it claimed last (the claim itself is the story's). */
export const SessionClaimed = defineEvent(
  'story_session.claimed',
  z.object({
    project_id: z.string(),
    session_id: z.string(),
    story_id: z.string(),
    at: z.string(),
  }),
);

/** The building loop's events of a story's stream. */
export const storyBuildEvents = [
  StoryClaimed,
  StoryClaimReleased,
  PlanSaved,
  PlanReviewed,
  PlanStepEdited,
  TestsSaved,
  CriteriaReported,
  BlockerRaised,
  BlockerCleared,
  FounderNeeded,
  HandoffCleared,
  StoryCompleted,
  PrLinked,
  CiResultsRecorded,
] as const;
export const sessionEvents = [SessionClaimed] as const;
export type StoryBuildEvent = EventsOf<typeof storyBuildEvents>;
export type SessionEvent = EventsOf<typeof sessionEvents>;
