import type { LearningEvidence } from '../../events/missions/learning.js';
import type { DeskEvent } from './desk-events.js';
import { missionsError } from './errors.js';
import { own } from '../../events/own.js';

/**
 * Learning blocks, decided purely: one active block per project; a block completes only after
 * its server-timed minimum, with a reflection and evidence, and only with the owner's literal
 * acknowledgement; an abandoned block mints nothing. The service brings `now`, fresh ids and
 * the evidence files it read.
 */

/** HAI-MCP's learning policy, as far as its published tests fix it. */
export const LEARNING_POLICY = {
  minimum_learning_minutes: 25,
  writer_credits_per_learning_block: 2,
  initial_writer_credits: 0,
} as const;

export type LearningBlock = {
  block_id: string;
  topic: string;
  intended_output_path: string;
  started_at: string;
  minimum_completion_at: string;
  status: 'active' | 'completed' | 'abandoned';
  credit_delta: number;
  ended_at: string | null;
};

export type Learning = Record<string, LearningBlock>;

type At = { project_id: string; now: string };
export type LearningCommands = {
  StartLearning: At & { block_id: string; topic: string; intended_output_path: string };
  CompleteLearning: At & {
    block_id: string;
    own_activity: string;
    learned: string;
    open_question: string;
    evidence: LearningEvidence[];
    /** why named evidence paths are no evidence (missing, empty, not a file, outside) */
    evidence_problems: string[];
    owner_ack: boolean;
    /** the caller may act for the project's owner (missions role owner, or SYSTEM) */
    owner: boolean;
  };
  AbandonLearning: At & { block_id: string; reason: string; owner_ack: boolean; owner: boolean };
};

export const activeBlock = (learning: Learning): LearningBlock | undefined =>
  Object.values(learning).find((b) => b.status === 'active');

export const learningBalance = (learning: Learning) => {
  const completed = Object.values(learning).filter((b) => b.status === 'completed');
  const earned = completed.reduce((sum, b) => sum + b.credit_delta, 0);
  return {
    credit_balance: LEARNING_POLICY.initial_writer_credits + earned,
    initial_credits: LEARNING_POLICY.initial_writer_credits,
    completed_learning_blocks: completed.length,
    writer_credits_earned: earned,
  };
};

export const evolveLearning = (learning: Learning, event: DeskEvent): Learning | undefined => {
  switch (event.type) {
    case 'learning_block.started': {
      const { block_id, topic, intended_output_path, started_at, minimum_completion_at } =
        event.data;
      const block: LearningBlock = {
        block_id,
        topic,
        intended_output_path,
        started_at,
        minimum_completion_at,
        status: 'active',
        credit_delta: 0,
        ended_at: null,
      };
      return { ...learning, [block_id]: block };
    }
    case 'learning_block.completed': {
      const block = own(learning, event.data.block_id);
      if (!block) return learning;
      const { credit_delta, completed_at } = event.data;
      const done = { ...block, status: 'completed' as const, credit_delta, ended_at: completed_at };
      return { ...learning, [block.block_id]: done };
    }
    case 'learning_block.abandoned': {
      const block = own(learning, event.data.block_id);
      if (!block) return learning;
      const ended = { ...block, status: 'abandoned' as const, ended_at: event.data.abandoned_at };
      return { ...learning, [block.block_id]: ended };
    }
    default:
      return undefined;
  }
};

const MINUTE = 60_000;

export const startLearning = (
  learning: Learning,
  cmd: LearningCommands['StartLearning'],
): DeskEvent[] => {
  const active = activeBlock(learning);
  if (active)
    throw missionsError('learning_block_active', 'only one learning block may be active', {
      active_block_id: active.block_id,
    });
  const minutes = LEARNING_POLICY.minimum_learning_minutes;
  const data = {
    project_id: cmd.project_id,
    block_id: cmd.block_id,
    topic: cmd.topic,
    intended_output_path: cmd.intended_output_path,
    started_at: cmd.now,
    minimum_completion_at: new Date(Date.parse(cmd.now) + minutes * MINUTE).toISOString(),
    minimum_learning_minutes: minutes,
  };
  return [{ type: 'learning_block.started', data }];
};

/** The owner's literal acknowledgement, from a caller who may act for the owner. */
const ownerAck = (cmd: { owner_ack: boolean; owner: boolean }, what: string) => {
  if (cmd.owner_ack !== true)
    throw missionsError(
      'owner_gate_required',
      `${what} requires owner_ack=true (literal boolean)`,
      {
        gate: 'owner_ack',
        owner_ack_required: true,
      },
    );
  if (!cmd.owner)
    throw missionsError('owner_role_required', `only an owner of this project may ${what}`, {
      required_role: 'owner',
    });
};

/** The block named, still open; or the refusal HAI-MCP answers for it. */
const openBlock = (learning: Learning, blockId: string, action: 'complete' | 'abandon') => {
  const block = own(learning, blockId);
  if (!block)
    throw missionsError('invalid_args', 'learning block not found', { block_id: blockId });
  if (block.status === 'completed')
    throw missionsError(
      'learning_block_already_completed',
      action === 'complete'
        ? 'the learning block is already completed'
        : 'a completed learning block cannot be abandoned',
      { block_id: blockId },
    );
  if (block.status === 'abandoned')
    throw missionsError(
      action === 'complete' ? 'learning_block_abandoned' : 'learning_block_already_abandoned',
      action === 'complete'
        ? 'the learning block was abandoned and cannot be completed'
        : 'the learning block is already abandoned',
      { block_id: blockId },
    );
  return block;
};

export const completeLearning = (
  learning: Learning,
  cmd: LearningCommands['CompleteLearning'],
): DeskEvent[] => {
  ownerAck(cmd, 'complete a learning block');
  const block = openBlock(learning, cmd.block_id, 'complete');
  if (cmd.now < block.minimum_completion_at)
    throw missionsError(
      'learning_time_required',
      'the learning block has not reached its minimum server-timed duration',
      {
        block_id: block.block_id,
        minimum_completion_at: block.minimum_completion_at,
        remaining_seconds: Math.ceil(
          (Date.parse(block.minimum_completion_at) - Date.parse(cmd.now)) / 1000,
        ),
      },
    );
  // evidence is looked at only once the time is up: it may be written during the block
  if (cmd.evidence_problems.length > 0)
    throw missionsError('invalid_args', cmd.evidence_problems.join('; '), {
      evidence_problems: cmd.evidence_problems,
    });
  if (cmd.evidence.length === 0)
    throw missionsError('invalid_args', 'at least one evidence path is required');
  const data = {
    project_id: cmd.project_id,
    block_id: block.block_id,
    own_activity: cmd.own_activity,
    learned: cmd.learned,
    open_question: cmd.open_question,
    evidence: cmd.evidence,
    credit_delta: LEARNING_POLICY.writer_credits_per_learning_block,
    completed_at: cmd.now,
  };
  return [{ type: 'learning_block.completed', data }];
};

export const abandonLearning = (
  learning: Learning,
  cmd: LearningCommands['AbandonLearning'],
): DeskEvent[] => {
  ownerAck(cmd, 'abandon a learning block');
  const block = openBlock(learning, cmd.block_id, 'abandon');
  if (!cmd.reason.trim()) throw missionsError('invalid_args', 'reason is required');
  const data = {
    project_id: cmd.project_id,
    block_id: block.block_id,
    reason: cmd.reason,
    abandoned_at: cmd.now,
  };
  return [{ type: 'learning_block.abandoned', data }];
};
