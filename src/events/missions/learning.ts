import { z } from 'zod';
import { defineEvent } from '../catalog/define.js';

/**
 * Learning blocks (HAI-MCP's `hai_learning_*`): a server-timed stretch in which the owner
 * learns something by their own hand, closed by a written reflection and a file of evidence.
 * A completed block mints writer credits; an abandoned one mints none. On the project's
 * missions stream, so "one active block" is decided against the expected version.
 */

/** An evidence file as it was read when the block was completed. */
export const LearningEvidence = z.object({
  path: z.string(),
  sha256: z.string(),
  bytes: z.number().int().positive(),
});
export type LearningEvidence = z.infer<typeof LearningEvidence>;

export const LearningStarted = defineEvent(
  'learning_block.started',
  z.object({
    project_id: z.string(),
    block_id: z.string(),
    topic: z.string(),
    /** relative to the project root */
    intended_output_path: z.string(),
    started_at: z.string(),
    minimum_completion_at: z.string(),
    minimum_learning_minutes: z.number().int().positive(),
  }),
);

export const LearningCompleted = defineEvent(
  'learning_block.completed',
  z.object({
    project_id: z.string(),
    block_id: z.string(),
    own_activity: z.string(),
    learned: z.string(),
    open_question: z.string(),
    evidence: z.array(LearningEvidence).min(1),
    credit_delta: z.number().int().nonnegative(),
    completed_at: z.string(),
  }),
);

export const LearningAbandoned = defineEvent(
  'learning_block.abandoned',
  z.object({
    project_id: z.string(),
    block_id: z.string(),
    reason: z.string(),
    abandoned_at: z.string(),
  }),
);

export const learningEvents = [LearningStarted, LearningCompleted, LearningAbandoned] as const;
