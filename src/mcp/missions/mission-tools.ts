import { z } from 'zod';
import type { AnyTool } from '../tool.js';
import {
  ContractVersion,
  MissionId,
  ackFlag,
  SessionId,
  gateArgs,
  missionTool,
  optionalText,
  projectRef,
  text,
} from './define.js';
import * as S from './schemas.js';

/** The mission rows of the gate matrix: contracts, leases, checks, recontract and close. */

const activityArgs = {
  ...projectRef,
  session_id: SessionId,
  activity_step: text(2000, 'what you are about to do (or just did), in a sentence'),
  criterion_id: z.string().min(1).max(128).optional().describe('the done criterion this serves'),
  affected_paths: z
    .array(z.string().min(1).max(1024))
    .max(200)
    .optional()
    .describe('files touched, relative to the project'),
  activity_kind: z.string().min(1).max(64).optional().describe('edit, test, commit, push, …'),
  trace_events: z
    .array(z.looseObject({ action: z.string().min(1).max(64) }))
    .max(50)
    .optional()
    .describe('HAI-MCP’s trace: every action is checked as an activity_kind'),
  evidence: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('what the agent observed; echoed, not stored'),
  declares_blocker: z.boolean().optional().describe('true when you are blocked'),
};

export const checkActivityTool = (name: string, title: string, description: string): AnyTool =>
  missionTool({
    name,
    title,
    description,
    args: activityArgs,
    output: S.ActivityResult,
    kind: 'change',
    run: (s, { project_path, project_id, device_id, ...args }, who) =>
      s.checkActivity({ project_path, project_id, device_id }, args, who),
    summary: (r) => `${r.classification}: ${r.required_action}`,
  });

const objective = z.string().max(2000).describe('what will be true when the mission is done');

export const openMissionTool = (): AnyTool =>
  missionTool({
    name: 'hai_open_mission',
    title: 'Open a mission',
    description:
      'Opens a bounded mission with its contract v1 (what is done when, who owns it, where it may work). A vague objective or no artifact answers review_required with issues[]; a second active mission in the project, active_mission_exists.',
    args: { objective, ...S.contractArgs },
    output: S.OpenedMission,
    kind: 'change',
    run: (s, args, who) => s.openMission(args, who),
    summary: (m) => `mission ${m.mission_id} open, contract v${m.contract_version}`,
  });

export const missionStartTool = (): AnyTool =>
  missionTool({
    name: 'hai_mission_start',
    title: 'Start a mission',
    description:
      'Fast start of the daily loop: the problem, the artifact, done criteria and a time limit. The same contract and rules as hai_open_mission (problem is its objective).',
    args: {
      problem: objective,
      ...S.contractArgs,
      time_limit_hours: z.number().positive().max(168).optional(),
    },
    output: S.OpenedMission,
    kind: 'change',
    run: (s, { problem, time_limit_hours, ...rest }, who) =>
      s.openMission(
        {
          ...rest,
          objective: problem,
          constraints: { ...rest.constraints, ...(time_limit_hours ? { time_limit_hours } : {}) },
        },
        who,
      ),
    summary: (m) => `mission ${m.mission_id} open, contract v${m.contract_version}`,
  });

const closeArgs = {
  ...projectRef,
  mission_id: MissionId,
  contract_version: ContractVersion,
  outcome_summary: text(4000, 'what came out'),
  evidence: S.EvidenceInput.optional(),
};

export const proofTool = (): AnyTool =>
  missionTool({
    name: 'hai_proof',
    title: 'Prove and close a mission',
    description:
      'Closes the mission as completed, only against evidence for every done criterion (files inside the project). Missing evidence answers status "incomplete" with missing_criteria and changes nothing. Same as hai_close_mission with closure "completed".',
    args: closeArgs,
    output: S.Closed,
    kind: 'change',
    run: (s, { project_path, project_id, device_id, ...args }, who) =>
      s.closeMission(
        { project_path, project_id, device_id },
        { ...args, closure: 'completed' },
        who,
      ),
    summary: (r) => `mission ${r.mission_id}: ${r.status}`,
  });

export const missionTools: AnyTool[] = [
  openMissionTool(),
  missionTool({
    name: 'hai_authorize_session',
    title: 'Authorize a session',
    description:
      'Grants a time-bounded session lease on the exact contract version, for the criteria you work on. Wrong version: contract_version_mismatch; no slot left: parallel_session_denied; a project_id contract needs a mounted device_id (device_mount_required).',
    args: {
      ...projectRef,
      mission_id: MissionId,
      contract_version: ContractVersion,
      agent_identity: text(200, 'who is working (model, harness, person)'),
      role: text(100, 'implementer, reviewer, …'),
      contribution: text(2000, 'what this session contributes'),
      expected_result: text(2000, 'what it will hand back'),
      duration_minutes: z.number().int().min(1).max(480),
      criterion_ids: z.array(z.string().min(1).max(128)).min(1).max(50),
      request_id: text(
        200,
        'idempotency key of this request: a retry returns the same lease',
      ).optional(),
      capabilities: z.array(z.string().min(1).max(64)).max(20).optional(),
      harness_id: z.string().min(1).max(200).optional(),
    },
    output: S.Lease,
    kind: 'change',
    run: (s, { project_path, project_id, ...args }, who) =>
      s.authorizeSession(
        { project_path, project_id, ...(args.device_id ? { device_id: args.device_id } : {}) },
        args,
        who,
      ),
    summary: (l) => `session ${l.session_id} until ${l.expires_at}`,
  }),
  missionTool({
    name: 'hai_get_contract',
    title: 'Get the contract',
    description:
      'Returns the exact canonical contract of a valid session lease (not a summary). An expired lease answers lease_expired with required_action "pause".',
    args: { ...projectRef, session_id: SessionId },
    output: S.LeaseContract,
    kind: 'query',
    run: (s, { session_id, ...ref }, who) => s.getContract(ref, session_id, who),
    summary: (m) => `contract v${m.contract_version} of ${m.mission_id}`,
  }),
  checkActivityTool(
    'hai_check_activity',
    'Check an activity',
    'Classifies an activity against the contract of a valid lease and records it: in_scope → continue, blocker → pause, park_candidate (matches a non-goal) → park, drift (a path outside allowed_paths or the project, or a sensitive action not granted) → stop, unclear (no leased criterion) → pause.',
  ),
  missionTool({
    name: 'hai_park_item',
    title: 'Park a mission idea',
    description:
      'Parks an idea that came up in a session, with its context and a rationale. Grants no execution right; the contract is unchanged.',
    args: {
      ...projectRef,
      idea: text(4000, 'the idea'),
      origin_session_id: SessionId,
      trigger_event: text(2000, 'what brought it up'),
      mission_id: MissionId,
      rationale: text(2000, 'why it is parked, not done'),
    },
    output: z.object({
      item_id: z.string(),
      execution_right: z.literal(false),
      contract_unchanged: z.literal(true),
    }),
    kind: 'change',
    run: (s, { project_path, project_id, device_id, ...args }, who) =>
      s.parkItem({ project_path, project_id, device_id }, args, who),
    summary: (r) => `parked ${r.item_id}`,
  }),
  missionTool({
    name: 'hai_recontract',
    title: 'Recontract a mission',
    description:
      'Owner-gated: writes a new contract version from field-level changes and revokes every lease. Call without owner_code: the answer is owner_gate_required (status pending_owner_code) and a one-time code goes to the owner; call again with owner_code. mode "break_glass" needs break_glass_marker=true.',
    args: {
      ...projectRef,
      mission_id: MissionId,
      contract_version: ContractVersion,
      reason: text(2000, 'why the contract changes'),
      changes: S.ContractChangesInput,
      mode: z.enum(['normal', 'break_glass']).optional(),
      break_glass_marker: ackFlag('true: the owner marked this a break-glass change'),
      owner_code: gateArgs.owner_code,
      owner_ack: gateArgs.owner_ack,
    },
    output: S.Recontracted,
    kind: 'overwrite',
    run: (s, { project_path, project_id, device_id, ...args }, who) =>
      s.recontract({ project_path, project_id, device_id }, args, who),
    summary: (m) =>
      `contract v${m.contract_version}; ${m.revoked_sessions.length} lease(s) revoked`,
  }),
  missionTool({
    name: 'hai_close_mission',
    title: 'Close a mission',
    description:
      'closure "completed": needs evidence for every done criterion (else status "incomplete" with missing_criteria, nothing changes). closure "abandoned": owner-gated like hai_recontract. Closing revokes every lease.',
    args: { ...closeArgs, closure: z.enum(['completed', 'abandoned']), ...gateArgs },
    output: S.Closed,
    kind: 'overwrite',
    run: (s, { project_path, project_id, device_id, ...args }, who) =>
      s.closeMission({ project_path, project_id, device_id }, args, who),
    summary: (r) => `mission ${r.mission_id}: ${r.status}`,
  }),
  missionTool({
    name: 'hai_bind_project',
    title: 'Bind a project directory',
    description:
      'Mounts a local directory as a logical project on a device (owner_ack=true and a reason). Every path of the project is then resolved against this mount.',
    args: {
      project_id: S.ProjectSlug,
      device_id: text(128, 'the device'),
      local_path: text(4096, 'absolute directory on that device'),
      owner_ack: ackFlag('true: the owner acknowledged the bind'),
      reason: optionalText(2000, 'why').default(''),
    },
    output: z.object({
      project_id: z.string(),
      device_id: z.string(),
      local_path: z.string(),
      root_hash: z.string(),
      mounts: z.array(z.string()),
    }),
    kind: 'change',
    run: (s, args, who) => s.bindProject({ ...args, owner_ack: args.owner_ack === true }, who),
    summary: (m) => `${m.project_id} mounted at ${m.local_path} on ${m.device_id}`,
  }),
];
