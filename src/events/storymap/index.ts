import { z } from 'zod';
import type { StoryBuildEvent } from './build-events.js';
import { defineEvent, type EventsOf } from '../catalog/define.js';
import { onStory } from './ids.js';

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

/** The events of the map's stream, and of a story's stream, as deciders and projectors see them. */
export type MapEvent = EventsOf<typeof mapEvents>;
export type StoryEvent = EventsOf<typeof storyEvents> | StoryBuildEvent;
export type StoryMapEvent = MapEvent | StoryEvent;

export * from './build-events.js';
export * from './runs.js';
