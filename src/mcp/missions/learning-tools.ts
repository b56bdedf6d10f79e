import { z } from 'zod';
import type { AnyTool } from '../tool.js';
import { ackFlag, missionTool, projectRef, text } from './define.js';

/**
 * HAI-MCP's learning tools: a server-timed learning block the owner starts, completes with a
 * reflection and evidence files (minting writer credits), or abandons (minting none).
 */

const BlockId = z
  .string()
  .regex(/^LB-\d{8}T\d{6}-[0-9a-f]{8}$/, 'a block id as hai_learning_start returned it')
  .describe('the block id hai_learning_start returned');

const LearningEvidence = z.object({ path: z.string(), sha256: z.string(), bytes: z.number() });

const ownerAck = ackFlag('true (the literal boolean): the owner confirms this');

export const learningTools: AnyTool[] = [
  missionTool({
    name: 'hai_learning_start',
    title: 'Start a learning block',
    description: `Starts a server-timed learning block on a topic, with the file you intend to write (a path in the project). One block may be active per project (else learning_block_active). It can be completed after its minimum duration (minimum_completion_at).`,
    args: {
      ...projectRef,
      topic: text(500, 'what you will learn'),
      intended_output_path: text(4096, 'the file you will write (relative to the project)'),
    },
    output: z.object({
      status: z.literal('active'),
      record_type: z.literal('learning_block_started'),
      block_id: z.string(),
      topic: z.string(),
      intended_output_path: z.string(),
      started_at: z.string(),
      minimum_completion_at: z.string(),
      minimum_learning_minutes: z.number().int(),
    }),
    kind: 'change',
    run: (s, { topic, intended_output_path, ...ref }, who) =>
      s.startLearning(ref, { topic, intended_output_path }, who),
    summary: (r) => `learning block ${r.block_id} until at least ${r.minimum_completion_at}`,
  }),
  missionTool({
    name: 'hai_learning_complete',
    title: 'Complete a learning block',
    description:
      'Completes a learning block after its minimum duration (else learning_time_required with remaining_seconds), with a reflection (own_activity, learned, open_question) and evidence files in the project (non-empty; hashed). Needs owner_ack=true. Mints writer credits.',
    args: {
      ...projectRef,
      block_id: BlockId,
      own_activity: text(4000, 'what you did yourself'),
      learned: text(4000, 'what you learned'),
      open_question: text(4000, 'what is still open'),
      evidence_paths: z
        .array(z.string().min(1).max(4096))
        .min(1)
        .max(20)
        .describe('files you wrote (relative to the project)'),
      owner_ack: ownerAck,
    },
    output: z.object({
      status: z.literal('completed'),
      block_id: z.string(),
      credits_minted: z.number().int(),
      credit_balance: z.number().int(),
      initial_credits: z.number().int(),
      completed_learning_blocks: z.number().int(),
      writer_credits_earned: z.number().int(),
      record: z.looseObject({ evidence: z.array(LearningEvidence) }),
    }),
    kind: 'change',
    run: (s, { project_path, project_id, device_id, owner_ack, ...args }, who) =>
      s.completeLearning(
        { project_path, project_id, device_id },
        { ...args, owner_ack: owner_ack === true },
        who,
      ),
    summary: (r) => `learning block ${r.block_id} completed; balance ${r.credit_balance}`,
  }),
  missionTool({
    name: 'hai_learning_abandon',
    title: 'Abandon a learning block',
    description:
      'Abandons an active learning block with a reason. Needs owner_ack=true. Mints nothing.',
    args: {
      ...projectRef,
      block_id: BlockId,
      reason: text(2000, 'why the block is abandoned'),
      owner_ack: ownerAck,
    },
    output: z.object({
      status: z.literal('abandoned'),
      block_id: z.string(),
      credits_minted: z.literal(0),
      record: z.looseObject({}),
    }),
    kind: 'change',
    run: (s, { project_path, project_id, device_id, owner_ack, ...args }, who) =>
      s.abandonLearning(
        { project_path, project_id, device_id },
        { ...args, owner_ack: owner_ack === true },
        who,
      ),
    summary: (r) => `learning block ${r.block_id} abandoned`,
  }),
];
