import { z } from 'zod';
import {
  ContractBody,
  DriftClass,
  FieldChange,
  LaneStatus,
  RequiredAction,
} from '../../events/missions/index.js';
import { Id } from '../../commands/ids.js';
import { unadvertised } from '../unadvertised.js';

/** Inputs and results of the missions surface. */

/**
 * A project a call names by id: an id, never a path (`../evil` is refused as invalid_args, as
 * HAI-MCP refuses it, before anything is looked up).
 */
export const ProjectIdRef = Id.refine((id) => !id.includes('/') && !id.includes('..'), {
  message: 'a project id, not a path (no "/" or "..")',
});

/**
 * A logical project's new name, as HAI-MCP's projects.json takes it: a lowercase slug
 * (`^[a-z][a-z0-9-]{1,63}$`); `HAI-MCP` or `../evil` are invalid_args.
 */
export const ProjectSlug = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,63}$/, 'a lowercase slug: ^[a-z][a-z0-9-]{1,63}$');

/**
 * A criterion as HAI-MCP's clients send it: `null` for a field is the field left out (the
 * surface's rule); without an id it is `dc-<n>` (its place in the list), and without a
 * description the contract is review_required ("missing description"), not malformed.
 */
export const CriterionInput = z.strictObject({
  id: Id.optional().describe('a short id such as C1 (default dc-<n>, n its place from 1)'),
  description: z.string().max(2000).optional().describe('how the criterion is checked'),
  verifiable: z.boolean().optional().describe('false: the contract is review_required'),
  // HAI-MCP's evidence kind (e.g. "file"): accepted, not stored
  evidence: unadvertised(z.string().max(200).optional(), 'ignored'),
});

export const ConstraintsInput = z.strictObject({
  project_path: z.string().min(1).max(4096).optional().describe('absolute project directory'),
  project_id: ProjectIdRef.optional().describe('or a logical project bound with hai_bind_project'),
  allowed_paths: z
    // "" is the project root, as a mission returns "." (so returned constraints can go back)
    .array(z.string().max(1024))
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
  // ignored, as HAI-MCP's clients send them: the owner is the contract's top-level field, a
  // device is mounted with hai_bind_project and named by the lease
  owner: unadvertised(z.string().max(200).optional(), 'ignored'),
  device_id: unadvertised(z.string().max(128).optional(), 'ignored'),
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

/** Fields of a mission the system keeps: a recontract naming one is refused, by name. */
const SYSTEM_FIELDS = [
  'mission_id',
  'contract_version',
  'contract_hash',
  'status',
  'created_at',
  'recontracted_at',
  'recontract_reason',
  'recontract_mode',
] as const;

export const ContractChangesInput = z
  .strictObject({
    objective: z.string().max(2000).optional(),
    artifact: z.string().max(1000).optional(),
    done_criteria: z.array(CriterionInput).max(50).optional(),
    non_goals: z.array(z.string().min(1).max(500)).max(50).optional(),
    owner: z.string().max(200).optional(),
    constraints: ConstraintsInput.optional().describe(
      'field by field; the project_path or project_id a mission returned may be sent back unchanged',
    ),
    ...Object.fromEntries(
      // accepted to be refused by name (below), not offered
      SYSTEM_FIELDS.map((f) => [f, unadvertised(z.unknown().optional(), 'refused')]),
    ),
  })
  .superRefine((changes, ctx) => {
    for (const field of SYSTEM_FIELDS)
      if ((changes as Record<string, unknown>)[field] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `system-managed field cannot be changed via recontract: ${field}`,
        });
  });

export const EvidenceInput = z
  .record(
    Id,
    z
      .strictObject({
        paths: z.array(z.string().min(1).max(1024)).min(1).max(50).optional(),
        path: z.string().min(1).max(4096).optional().describe('HAI-MCP’s form: one file'),
        note: z.string().max(2000).optional(),
      })
      .refine((e) => e.paths !== undefined || e.path !== undefined, 'give paths or path'),
  )
  .describe('per done criterion: files inside the project that prove it (paths, or one path)');

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
  reason: z.string().describe('the reasons, joined (HAI-MCP)'),
  criterion_id: z.string().nullable(),
  activity_kind: z.string().nullable(),
  evidence: z.record(z.string(), z.unknown()).optional(),
});

/** A mission just opened: its contract passed review. */
export const OpenedMission = MissionView.extend({ validation: z.literal('validated') });

/** The contract of a lease, with what HAI-MCP's clients read beside it. */
export const LeaseContract = MissionView.extend({
  session_id: z.string(),
  expires_at: z.string(),
  remaining_seconds: z.number().int().nonnegative().describe('whole seconds the lease has left'),
  done_criteria: ContractBody.shape.done_criteria,
  non_goals: ContractBody.shape.non_goals,
});

/** How an owner-gated change passed (HAI-MCP's echo, docs/OWNER_GATE.md "Passed"). */
export const OwnerGateEcho = z.object({
  gate: z.enum(['nonce', 'ack_legacy']),
  challenge_id: z.string().nullable().describe('the challenge the code answered (nonce)'),
  audit_event_id: z.string().describe('where the change is in the log: `position:<n>`'),
});

export const Recontracted = MissionView.extend({
  diff: z.array(FieldChange.extend({ old: z.unknown(), new: z.unknown() })),
  revoked_sessions: z.array(z.string()),
  audit_classification: z.literal('break_glass').nullable(),
  owner_gate: OwnerGateEcho.optional().describe('how the owner gate passed (always, on success)'),
});

export const Closed = z.object({
  mission_id: z.string(),
  status: z.enum(['completed', 'abandoned', 'incomplete']),
  missing_criteria: z.array(z.string()),
  unverified_paths: z.array(z.string()).describe('evidence paths that do not exist'),
  invalid_evidence: z
    .array(
      z.object({
        criterion_id: z.string(),
        path: z.string(),
        error: z.string(),
        message: z.string(),
      }),
    )
    .describe('evidence that is no file (a directory, a NUL byte): its criterion stays missing'),
  verified_criteria: z
    .record(
      z.string(),
      z.object({
        path: z.string(),
        sha256: z.string(),
        files: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number() })),
      }),
    )
    .describe('per criterion: its (first) evidence file and sha256, and every file'),
  outcome_summary: z.string(),
  next_mission: z.null().describe('a close plans no next mission'),
  reason: z.string().optional().describe('why it was abandoned'),
  revoked_sessions: z.array(z.string()),
  owner_gate: OwnerGateEcho.optional().describe('an abandon: how the owner gate passed'),
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
  hai_home: z.string().describe('the data directory: the log and the home project live here'),
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
