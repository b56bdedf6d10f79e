import { z } from 'zod';
import { defineEvent, type EventOf } from './define.js';

/**
 * The story map context (contracts/storymap.md, hosted part). Two kinds of stream:
 * - the map (`storymap:<project>:<project>`): what ties stories together and must be decided
 *   in one place — the key counter, the title index, activities, releases, the vision, the
 *   dependency graph, the build sequence and decisions;
 * - one stream per story (`story:<project>:<story_id>`): the story's own record; its stream
 *   version is the story's `version`.
 * Types are `storymap.*`, `story.*` and `criteria.*`/`criterion.*`: no other context uses them.
 */
export const StoryStatus = z.enum([
  'todo',
  'ready_for_dev',
  'in_progress',
  'needs_rework',
  'done',
  'approved',
]);
export type StoryStatus = z.infer<typeof StoryStatus>;

export const StoryPriority = z.enum(['must', 'should', 'could']);
export type StoryPriority = z.infer<typeof StoryPriority>;
export const Effort = z.enum(['XS', 'S', 'M', 'L', 'XL']);
export type Effort = z.infer<typeof Effort>;
export const VisionKey = z.enum(['users', 'problem', 'switch', 'first', 'proof']);
export type VisionKey = z.infer<typeof VisionKey>;
export const DecisionCategory = z.enum(['architecture', 'product', 'technical', 'trade-off']);
export type DecisionCategory = z.infer<typeof DecisionCategory>;
export const VerificationMethod = z.enum([
  'executable',
  'agent_self_check',
  'visual_render',
  'founder_confirm',
]);

export const Verification = z.object({
  method: VerificationMethod,
  command: z.string().nullable(),
  check_prompt: z.string().nullable(),
  expected: z.string().nullable(),
});
export type Verification = z.infer<typeof Verification>;

/** A criterion as stored: the contract's input table, normalised, with its id. */
export const Criterion = z.object({
  criterion_id: z.string(),
  text: z.string(),
  priority: StoryPriority,
  given: z.string().nullable(),
  when: z.string().nullable(),
  then: z.string().nullable(),
  verification: Verification.nullable(),
});
export type Criterion = z.infer<typeof Criterion>;

/** Where a status change came from: an agent's tool call or the founder's CLI. */
export const ChangeSource = z.enum(['mcp', 'founder_cli']);
export type ChangeSource = z.infer<typeof ChangeSource>;

const onMap = { project_id: z.string() };
const onStory = { project_id: z.string(), story_id: z.string() };

export const StoryMapCreated = defineEvent(
  'storymap.created',
  z.object({
    ...onMap,
    map_id: z.string(),
    name: z.string(),
    idea: z.string(),
    key_prefix: z.string(),
    created_by: z.string(),
    client: z.string().nullable(),
  }),
);
export const StoryMapArchived = defineEvent(
  'storymap.archived',
  z.object({ ...onMap, by: z.string() }),
);
export const StoryMapRestored = defineEvent(
  'storymap.restored',
  z.object({ ...onMap, by: z.string() }),
);
export const VisionAnswered = defineEvent(
  'storymap.vision_answered',
  z.object({
    ...onMap,
    answers: z.partialRecord(VisionKey, z.string()),
    source: z.enum(['answers', 'report']),
    by: z.string(),
  }),
);
export const ActivityAdded = defineEvent(
  'storymap.activity_added',
  z.object({ ...onMap, activity_id: z.string(), name: z.string(), position: z.number().int() }),
);
export const ReleaseCreated = defineEvent(
  'storymap.release_created',
  z.object({ ...onMap, release_order: z.number().int(), label: z.string() }),
);
export const ReleaseRenamed = defineEvent(
  'storymap.release_renamed',
  z.object({
    ...onMap,
    release_order: z.number().int(),
    previous_label: z.string(),
    label: z.string(),
  }),
);
/** The map's row of a story: its key, and the title and liveness duplicate checks need. */
export const StoryIndexed = defineEvent(
  'storymap.story_indexed',
  z.object({
    ...onStory,
    key: z.string(),
    title: z.string(),
    cancelled: z.boolean(),
  }),
);
export const DependenciesSet = defineEvent(
  'storymap.dependencies_set',
  z.object({ ...onStory, depends_on: z.array(z.string()) }),
);
export const BuildSequenceSet = defineEvent(
  'storymap.build_sequence_set',
  z.object({ ...onStory, build_sequence: z.number().int().positive().nullable() }),
);
export const DecisionLogged = defineEvent(
  'storymap.decision_logged',
  z.object({
    ...onMap,
    decision_id: z.string(),
    title: z.string(),
    description: z.string(),
    category: DecisionCategory,
    story_id: z.string().nullable(),
    by: z.string(),
  }),
);
export const DecisionAmended = defineEvent(
  'storymap.decision_amended',
  z.object({
    ...onMap,
    decision_id: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    category: DecisionCategory.optional(),
    by: z.string(),
  }),
);
export const DecisionRetracted = defineEvent(
  'storymap.decision_retracted',
  z.object({ ...onMap, decision_id: z.string(), reason: z.string().nullable(), by: z.string() }),
);

/** The story fields `update_stories` may change (status apart: it has its own event). */
export const StoryChanges = z.object({
  title: z.string().optional(),
  priority: StoryPriority.optional(),
  effort: Effort.optional(),
  release_order: z.number().int().optional(),
  activity: z.string().optional(),
  sort_order: z.number().int().optional(),
  notes: z.string().optional(),
  implementation_summary: z.string().optional(),
  implemented_files: z.array(z.string()).optional(),
  as_a: z.string().optional(),
  i_want: z.string().optional(),
  so_that: z.string().optional(),
});
export type StoryChanges = z.infer<typeof StoryChanges>;

export const StoryCreated = defineEvent(
  'story.created',
  z.object({
    ...onStory,
    key: z.string(),
    title: z.string(),
    activity: z.string(),
    as_a: z.string().nullable(),
    i_want: z.string().nullable(),
    so_that: z.string().nullable(),
    priority: StoryPriority,
    effort: Effort,
    release_order: z.number().int(),
    source: z.enum(['manual', 'report']),
    by: z.string(),
  }),
);
export const StoryRevised = defineEvent(
  'story.revised',
  z.object({ ...onStory, changes: StoryChanges, by: z.string() }),
);
export const StoryStatusChanged = defineEvent(
  'story.status_changed',
  z.object({
    ...onStory,
    from: StoryStatus,
    to: StoryStatus,
    by: z.string(),
    via: ChangeSource,
  }),
);
export const StoryCancelled = defineEvent(
  'story.cancelled',
  z.object({ ...onStory, reason: z.string().nullable(), status: StoryStatus, by: z.string() }),
);
export const StoryUncancelled = defineEvent(
  'story.uncancelled',
  z.object({ ...onStory, status: StoryStatus, by: z.string() }),
);
export const StoryNoteAdded = defineEvent(
  'story.note_added',
  z.object({ ...onStory, note: z.string(), by: z.string() }),
);
export const CriteriaAdded = defineEvent(
  'criteria.added',
  z.object({ ...onStory, criteria: z.array(Criterion), by: z.string() }),
);
export const CriterionUpdated = defineEvent(
  'criterion.updated',
  z.object({
    ...onStory,
    criterion_id: z.string(),
    text: z.string().optional(),
    priority: StoryPriority.optional(),
    by: z.string(),
  }),
);
/** `kept`: ids carried over from the old set because a built story's criterion kept its words. */
export const CriteriaReplaced = defineEvent(
  'criteria.replaced',
  z.object({
    ...onStory,
    criteria: z.array(Criterion),
    removed: z.array(z.string()),
    kept: z.array(z.string()),
    by: z.string(),
  }),
);

/**
 * A story's place in the build changed: its dependencies or its build sequence, which the map
 * decides (`storymap.dependencies_set`, `storymap.build_sequence_set`). Appended to the story's
 * own stream in the same atomic append, so the change moves the story's `version` and a client
 * holding an expected_version sees it.
 */
export const StoryPlanChanged = defineEvent(
  'story.plan_changed',
  z.object({
    ...onStory,
    depends_on: z.array(z.string()).optional(),
    build_sequence: z.number().int().positive().nullable().optional(),
    by: z.string(),
  }),
);

export const mapEvents = [
  StoryMapCreated,
  StoryMapArchived,
  StoryMapRestored,
  VisionAnswered,
  ActivityAdded,
  ReleaseCreated,
  ReleaseRenamed,
  StoryIndexed,
  DependenciesSet,
  BuildSequenceSet,
  DecisionLogged,
  DecisionAmended,
  DecisionRetracted,
] as const;

export const storyEvents = [
  StoryCreated,
  StoryRevised,
  StoryStatusChanged,
  StoryCancelled,
  StoryUncancelled,
  StoryNoteAdded,
  CriteriaAdded,
  CriterionUpdated,
  CriteriaReplaced,
  StoryPlanChanged,
] as const;

export const storymapEvents = [...mapEvents, ...storyEvents] as const;

type EventsOf<L extends readonly unknown[]> = { [K in keyof L]: EventOf<L[K]> }[number];

/** The events of the map's stream, and of a story's stream, as deciders and projectors see them. */
export type MapEvent = EventsOf<typeof mapEvents>;
export type StoryEvent = EventsOf<typeof storyEvents> | StoryBuildEvent;
export type StoryMapEvent = MapEvent | StoryEvent;

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
] as const;
export const sessionEvents = [SessionClaimed] as const;
export type StoryBuildEvent = EventsOf<typeof storyBuildEvents>;
export type SessionEvent = EventsOf<typeof sessionEvents>;

/*
 * Build runs (issue 15): a run is its own stream (`storymap.run:<project>:<number>`), created,
 * approved, paused, resumed, stopped and cancelled by the founder; `next_in_run` hands its
 * stories out one at a time, and the hand-out is decided under the run's version so two agents
 * asking at once can never exceed its concurrency.
 */
export const RunOnFailure = z.enum(['stop', 'continue']);
export type RunOnFailure = z.infer<typeof RunOnFailure>;
const onRun = { project_id: z.string(), run_id: z.string() };

export const RunCreated = defineEvent(
  'storymap.run_created',
  z.object({
    ...onRun,
    number: z.number().int().positive(),
    key: z.string(),
    title: z.string(),
    story_ids: z.array(z.string()),
    concurrency: z.number().int().positive(),
    on_failure: RunOnFailure,
    by: z.string(),
  }),
);
export const RunApproved = defineEvent(
  'storymap.run_approved',
  z.object({ ...onRun, by: z.string() }),
);
export const RunPaused = defineEvent(
  'storymap.run_paused',
  z.object({ ...onRun, reason: z.string().nullable(), by: z.string() }),
);
export const RunResumed = defineEvent(
  'storymap.run_resumed',
  z.object({ ...onRun, by: z.string() }),
);
export const RunStopped = defineEvent(
  'storymap.run_stopped',
  z.object({ ...onRun, reason: z.string().nullable(), by: z.string() }),
);
export const RunCancelled = defineEvent(
  'storymap.run_cancelled',
  z.object({ ...onRun, reason: z.string().nullable(), by: z.string() }),
);
export const RunStoryHandedOut = defineEvent(
  'storymap.run_story_handed_out',
  z.object({
    ...onRun,
    story_id: z.string(),
    position: z.number().int().positive(),
    by: z.string(),
  }),
);

export const runEvents = [
  RunCreated,
  RunApproved,
  RunPaused,
  RunResumed,
  RunStopped,
  RunCancelled,
  RunStoryHandedOut,
] as const;
export type RunEvent = EventsOf<typeof runEvents>;

/*
 * Design references (save_design / get_design): one stream per story
 * (`storymap.design:<project>:<story_id>`), apart from the story's own so that attaching a
 * design never conflicts with the building loop's writes to the story.
 */
export const DesignKind = z.enum([
  'figma',
  'claude-design',
  'image-url',
  'repo-path',
  'storybook',
  'other',
]);
export type DesignKind = z.infer<typeof DesignKind>;

export const DesignAttached = defineEvent(
  'storymap.design_attached',
  z.object({
    ...onStory,
    ref_id: z.string(),
    kind: DesignKind,
    url: z.string(),
    selector: z.string().nullable(),
    by: z.string(),
  }),
);
/** Only the hash and the time of a fetch are kept, never the content. */
export const DesignFetched = defineEvent(
  'storymap.design_fetched',
  z.object({
    ...onStory,
    ref_id: z.string(),
    content_hash: z.string(),
    drifted: z.boolean(),
    by: z.string(),
  }),
);

export const designEvents = [DesignAttached, DesignFetched] as const;
export type DesignEvent = EventsOf<typeof designEvents>;
