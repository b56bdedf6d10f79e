import { randomBytes } from 'node:crypto';
import { missionsError } from '../../commands/missions/errors.js';
import { learningBalance, LEARNING_POLICY } from '../../commands/missions/learning.js';
import type { Desk } from '../../commands/missions/desk-state.js';
import { sha256Hex } from '../../events/codec.js';
import type { LearningEvidence } from '../../events/missions/learning.js';
import { own } from '../../events/own.js';
import { probeProjectPath, readProjectFile } from '../project/files.js';
import type { Caller, MissionsCore, ProjectRef, Resolved } from './index.js';
import { confine, hasNul, inProject } from './paths.js';

/**
 * HAI-MCP's learning tools: start a server-timed block, complete it with a reflection and an
 * evidence file, or abandon it. Paths are the project's (relative to its root, or absolute
 * inside it): the project is the one named, else the block's, else the home project.
 */

/** HAI-MCP's block id form: `LB-<UTC yyyymmddThhmmss>-<8 hex>`. */
const newBlockId = (now: string) =>
  `LB-${now.slice(0, 19).replace(/[-:]/g, '')}-${randomBytes(4).toString('hex')}`;

const rootOf = (project: Resolved): string => {
  if (project.root === null)
    throw missionsError('device_mount_required', 'this device has no mount of the project', {
      device_id: project.device_id,
    });
  return project.root;
};

/** What an evidence path holds: a verified file, or why it is none (no throw: time goes first). */
const readEvidence = async (
  root: string,
  paths: readonly string[],
): Promise<{ files: LearningEvidence[]; problems: string[] }> => {
  const files: LearningEvidence[] = [];
  const problems: string[] = [];
  for (const raw of paths) {
    if (hasNul(raw) || raw.trim() === '') {
      problems.push('evidence paths must be non-empty and free of NUL bytes');
      continue;
    }
    const { relative } = await confine(root, raw.trim());
    const found = await inProject(() => probeProjectPath(root, relative));
    if (found === 'missing') problems.push(`evidence path does not exist: ${relative}`);
    else if (found !== 'file') problems.push(`evidence path is not a file: ${relative}`);
    else {
      const bytes = await inProject(() => readProjectFile(root, relative));
      if (bytes === undefined) problems.push(`evidence path does not exist: ${relative}`);
      else if (bytes.length === 0) problems.push(`evidence file is empty: ${relative}`);
      else
        files.push({ path: relative, sha256: `sha256:${sha256Hex(bytes)}`, bytes: bytes.length });
    }
  }
  return { files, problems };
};

export const learningOps = (core: MissionsCore) => {
  const { run, resolve, now } = core;
  const byBlock = (ref: ProjectRef, blockId: string, caller: Caller) =>
    resolve({ ...ref, via: { kind: 'learning_block', id: blockId } }, caller);
  const blockOf = (s: Desk, blockId: string) => own(s.learning, blockId)!;

  const startLearning = async (
    ref: ProjectRef,
    args: { topic: string; intended_output_path: string },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    const root = rootOf(project);
    if (hasNul(args.intended_output_path))
      throw missionsError('invalid_args', 'intended_output_path contains a NUL byte');
    const { relative } = await confine(root, args.intended_output_path.trim());
    const found =
      relative === '' ? 'directory' : await inProject(() => probeProjectPath(root, relative));
    if (found === 'directory' || found === 'other')
      throw missionsError('invalid_args', 'intended_output_path must be a file path', {
        intended_output_path: args.intended_output_path,
      });
    const t = now();
    const block_id = newBlockId(t);
    const data = {
      project_id: project.project_id,
      now: t,
      block_id,
      topic: args.topic.trim(),
      intended_output_path: relative,
    };
    const out = await run(project, { type: 'StartLearning', data }, caller, (s) => {
      const b = blockOf(s, block_id);
      return {
        status: 'active' as const,
        record_type: 'learning_block_started' as const,
        block_id,
        topic: b.topic,
        intended_output_path: b.intended_output_path,
        started_at: b.started_at,
        minimum_completion_at: b.minimum_completion_at,
        minimum_learning_minutes: LEARNING_POLICY.minimum_learning_minutes,
      };
    });
    return { project, ...out };
  };

  const completeLearning = async (
    ref: ProjectRef,
    args: {
      block_id: string;
      own_activity: string;
      learned: string;
      open_question: string;
      evidence_paths: string[];
      owner_ack: boolean;
    },
    caller: Caller,
  ) => {
    const project = await byBlock(ref, args.block_id, caller);
    const evidence = await readEvidence(rootOf(project), args.evidence_paths);
    const data = {
      project_id: project.project_id,
      now: now(),
      block_id: args.block_id,
      own_activity: args.own_activity.trim(),
      learned: args.learned.trim(),
      open_question: args.open_question.trim(),
      evidence: evidence.files,
      evidence_problems: evidence.problems,
      owner_ack: args.owner_ack,
      owner: await core.mounts.mayOwn(project, caller.principal),
    };
    const out = await run(project, { type: 'CompleteLearning', data }, caller, (s) => {
      const b = blockOf(s, args.block_id);
      const { project_id: _p, now: completed_at, owner: _o, evidence_problems: _e, ...rest } = data;
      return {
        status: 'completed' as const,
        block_id: b.block_id,
        credits_minted: b.credit_delta,
        ...learningBalance(s.learning),
        record: {
          record_type: 'learning_block_completed' as const,
          ...rest,
          topic: b.topic,
          completed_at,
          credit_delta: b.credit_delta,
        },
      };
    });
    return { project, ...out };
  };

  const abandonLearning = async (
    ref: ProjectRef,
    args: { block_id: string; reason: string; owner_ack: boolean },
    caller: Caller,
  ) => {
    const project = await byBlock(ref, args.block_id, caller);
    const data = {
      project_id: project.project_id,
      now: now(),
      block_id: args.block_id,
      reason: args.reason.trim(),
      owner_ack: args.owner_ack,
      owner: await core.mounts.mayOwn(project, caller.principal),
    };
    const out = await run(project, { type: 'AbandonLearning', data }, caller, (s) => {
      const b = blockOf(s, args.block_id);
      return {
        status: 'abandoned' as const,
        block_id: b.block_id,
        credits_minted: 0 as const,
        record: {
          record_type: 'learning_block_abandoned' as const,
          block_id: b.block_id,
          topic: b.topic,
          reason: data.reason,
          abandoned_at: data.now,
          credit_delta: 0 as const,
          owner_ack: true as const,
        },
      };
    });
    return { project, ...out };
  };

  return { startLearning, completeLearning, abandonLearning };
};
