import { z } from 'zod';
import {
  ContractBody,
  DriftClass,
  FieldChange,
  LaneStatus,
  RequiredAction,
} from '../../events/missions/index.js';
import { Id } from '../../commands/ids.js';
import { text } from './define.js';

/** Inputs and results of the missions surface. */

export const CriterionInput = z.strictObject({
  id: Id.describe('a short id such as C1'),
  description: text(2000, 'how the criterion is checked'),
});

export const ConstraintsInput = z.strictObject({
  project_path: z.string().min(1).max(4096).optional().describe('absolute project directory'),
  project_id: Id.optional().describe('or a logical project bound with hai_bind_project'),
  allowed_paths: z
    .array(z.string().min(1).max(1024))
    .max(100)
    .optional()
    .describe('paths (relative to the project) the work may touch; empty: the whole project'),
  capabilities: z
    .array(z.string().min(1).max(64))
    .max(20)
    .optional()
    .describe('sensitive actions a lease may be granted (commit, push, …)'),
  max_parallel_sessions: z
    .number()
    .int()
    .min(1)
    .max(16)
    .optional()
    .describe('session leases at once (default 1)'),
  time_limit_hours: z.number().positive().max(168).optional(),
});

export const contractArgs = {
  artifact: z.string().max(1000).describe('the artifact the mission produces'),
  done_criteria: z.array(CriterionInput).max(50).describe('what must be true, each with an id'),
  owner: z.string().max(200).describe('who decides on changes to the contract'),
  non_goals: z.array(z.string().min(1).max(500)).max(50).optional(),
  constraints: ConstraintsInput.describe(
    'where (project_path or project_id) and within what limits',
  ),
};

export const ContractChangesInput = z.strictObject({
  objective: z.string().max(2000).optional(),
  artifact: z.string().max(1000).optional(),
  done_criteria: z.array(CriterionInput).max(50).optional(),
  non_goals: z.array(z.string().min(1).max(500)).max(50).optional(),
  owner: z.string().max(200).optional(),
  constraints: ConstraintsInput.omit({ project_path: true, project_id: true }).optional(),
});

export const EvidenceInput = z
  .record(
    Id,
    z.strictObject({
      paths: z.array(z.string().min(1).max(1024)).min(1).max(50),
      note: z.string().max(2000).optional(),
    }),
  )
  .describe('per done criterion: files inside the project that prove it');

export const MissionView = z.object({
  mission_id: z.string(),
  status: z.enum(['active', 'completed', 'abandoned']),
  contract_version: z.number().int(),
  contract_hash: z.string(),
  contract: ContractBody,
});

export const Lease = z.object({
  session_id: z.string(),
  mission_id: z.string(),
  contract_version: z.number().int(),
  contract_hash: z.string(),
  agent_identity: z.string(),
  role: z.string(),
  contribution: z.string(),
  expected_result: z.string(),
  criterion_ids: z.array(z.string()),
  capabilities: z.array(z.string()),
  device_id: z.string().nullable(),
  harness_id: z.string().nullable(),
  granted_at: z.string(),
  expires_at: z.string(),
});

export const ActivityResult = z.object({
  session_id: z.string(),
  mission_id: z.string(),
  contract_version: z.number().int(),
  classification: DriftClass,
  required_action: RequiredAction,
  reasons: z.array(z.string()),
});

export const Recontracted = MissionView.extend({
  diff: z.array(FieldChange),
  revoked_sessions: z.array(z.string()),
});

export const Closed = z.object({
  mission_id: z.string(),
  status: z.enum(['completed', 'abandoned', 'incomplete']),
  missing_criteria: z.array(z.string()),
  unverified_paths: z.array(z.string()),
  revoked_sessions: z.array(z.string()),
});

export const Lanes = z.object({
  focus_id: z.string().nullable(),
  active_lanes: z.array(z.string()),
  lanes: z.array(
    z.object({ focus_id: z.string(), label: z.string().nullable(), status: LaneStatus }),
  ),
});

export const Status = z.object({
  project_id: z.string(),
  root: z.string().nullable(),
  focus_id: z.string().nullable(),
  active_lanes: z.array(z.string()),
  max_active_lanes: z.number().int(),
  inbox_count: z.number().int(),
  parked_count: z.number().int(),
  active_mission: z
    .object({
      mission_id: z.string(),
      contract_version: z.number().int(),
      contract_hash: z.string(),
      objective: z.string(),
    })
    .nullable(),
  live_sessions: z.array(z.string()),
  next_step: z.object({ accepted: z.boolean(), proposed: z.boolean() }),
  pending_owner_challenges: z.number().int(),
});

export const Health = z.object({
  ok: z.boolean(),
  owner_gate: z.object({
    mode: z.enum(['nonce', 'ack_legacy']),
    channel: z.string(),
    honor_system: z.boolean(),
    warning: z.string().nullable(),
  }),
  device_id: z.string(),
  project: z
    .object({
      project_id: z.string(),
      root: z.string().nullable(),
      artifact_failure: z
        .object({ reason: z.string(), at: z.string() })
        .nullable()
        .describe('why this server last failed to write the project’s artifact files, if it does'),
    })
    .nullable(),
  config_warnings: z.array(z.string()),
});

export const Drift = z.array(
  z.object({ file: z.string(), status: z.enum(['missing', 'edited', 'stale']) }),
);

export const Artifacts = z.object({
  directory: z.string(),
  artifacts: z.array(
    z.object({
      name: z.string(),
      present: z.boolean(),
      chars: z.number().int(),
      truncated: z.boolean(),
      content: z.string().nullable(),
    }),
  ),
  drift: Drift,
});

export const Checkpoint = z.object({
  checkpoint_id: z.string(),
  note: z.string().nullable(),
  focus_id: z.string().nullable(),
  active_lanes: z.array(z.string()),
  mission_id: z.string().nullable(),
  contract_version: z.number().int().nullable(),
  next_step: z.string().nullable(),
  recorded_at: z.string(),
});
