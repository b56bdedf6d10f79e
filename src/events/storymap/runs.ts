import { z } from 'zod';
import { defineEvent, type EventsOf } from '../catalog/define.js';
import { onStory } from './ids.js';

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
