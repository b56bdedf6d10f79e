import { z } from 'zod';
import { LaneStatus } from '../../events/missions/index.js';
import type { AnyTool } from '../tool.js';
import {
  CheckpointId,
  IntakeId,
  gateArgs,
  missionTool,
  optionalText,
  projectRef,
  text,
} from './define.js';
import * as S from './schemas.js';

/** The desk rows of the gate matrix: health, status, next steps, lanes, inbox, checkpoints. */
export const deskTools: AnyTool[] = [
  missionTool({
    name: 'hai_health',
    title: 'Health',
    description:
      'Server health, the owner gate mode (ack_legacy is flagged as an honor system) and, given a project, whether it resolves on this device.',
    args: {
      project_path: projectRef.project_path,
      project_id: projectRef.project_id,
      device_id: projectRef.device_id,
    },
    output: S.Health,
    kind: 'query',
    run: (s, ref, who) => s.health(ref, who),
    summary: (h) =>
      `ok; owner gate ${h.owner_gate.mode}${h.owner_gate.honor_system ? ' (honor system)' : ''}`,
  }),
  missionTool({
    name: 'hai_status',
    title: 'Status',
    description:
      'ACTIVE lanes and focus, inbox and parked counts, the active mission, live sessions, next-step flags, pending owner challenges.',
    args: projectRef,
    output: S.Status,
    kind: 'query',
    run: (s, ref, who) => s.status(ref, who),
    summary: (st) =>
      `${st.active_lanes.length} active lane(s), mission ${st.active_mission?.mission_id ?? 'none'}`,
  }),
  missionTool({
    name: 'hai_get_next_step',
    title: 'Get the next step',
    description: 'The canonical next step (NEXT_STEP.md) and the pending proposal, if any.',
    args: projectRef,
    output: z.object({
      next_step: z.string().nullable(),
      accepted_at: z.string().nullable(),
      proposed: z.string().nullable(),
    }),
    kind: 'query',
    run: (s, ref, who) => s.getNextStep(ref, who),
    summary: (n) => (n.next_step ? 'next step set' : 'no next step'),
  }),
  missionTool({
    name: 'hai_read_artifacts',
    title: 'Read the artifacts',
    description:
      'Reads the run-contract artifacts in <project>/Projek-Managment (regenerated from the log on every change; never read back as truth) and lists any drift of the files from the log.',
    args: { ...projectRef, max_chars: z.number().int().min(0).max(100_000).optional() },
    output: S.Artifacts,
    kind: 'query',
    run: (s, { max_chars, ...ref }, who) => s.readArtifacts(ref, max_chars ?? 4000, who),
    summary: (a) => `${a.artifacts.length} artifact(s), ${a.drift.length} drifted`,
  }),
  missionTool({
    name: 'hai_park',
    title: 'Park a thought',
    description: 'Parks a thought in the inbox without touching ACTIVE lanes.',
    args: {
      ...projectRef,
      text: text(4000, 'the thought'),
      tags: z.array(z.string().min(1).max(64)).max(20).optional(),
    },
    output: z.object({
      item_id: z.string(),
      inbox_count: z.number().int(),
      active_lanes_changed: z.literal(false),
    }),
    kind: 'change',
    run: (s, { text: t, tags, ...ref }, who) =>
      s.park(ref, { text: t, ...(tags ? { tags } : {}) }, who),
    summary: (r) => `parked ${r.item_id}`,
  }),
  missionTool({
    name: 'hai_set_focus',
    title: 'Set focus',
    description:
      'Sets the focus lane (ACTIVE by default) or pauses / finishes one (status). At most 2 lanes are ACTIVE: a third answers max_active_lanes.',
    args: {
      ...projectRef,
      focus_id: z.string().min(1).max(128),
      label: optionalText(200, 'what the lane is'),
      status: LaneStatus.optional(),
    },
    output: S.Lanes,
    kind: 'change',
    run: (s, { focus_id, label, status, ...ref }, who) =>
      s.setFocus(
        ref,
        { focus_id, ...(label ? { label } : {}), ...(status ? { status } : {}) },
        who,
      ),
    summary: (l) => `focus ${l.focus_id ?? 'none'}; active ${l.active_lanes.join(', ') || 'none'}`,
  }),
  missionTool({
    name: 'hai_propose_next_step',
    title: 'Propose a next step',
    description:
      'Writes NEXT_STEP.proposed.md (not canonical). The owner promotes it with hai_accept_next_step.',
    args: { ...projectRef, content: text(20_000, 'the proposed next step') },
    output: z.object({ file: z.string(), content_hash: z.string(), canonical: z.literal(false) }),
    kind: 'change',
    run: (s, { content, ...ref }, who) => s.proposeNextStep(ref, content, who),
    summary: () => 'next step proposed',
  }),
  missionTool({
    name: 'hai_accept_next_step',
    title: 'Accept the next step',
    description:
      'Owner-gated: promotes the proposal (or content) to NEXT_STEP.md. Call without owner_code: owner_gate_required (status pending_owner_code) and a one-time code goes to the owner; call again with owner_code. The code is bound to this exact content and single-use.',
    args: { ...projectRef, content: z.string().min(1).max(20_000).optional(), ...gateArgs },
    output: z.object({
      file: z.string(),
      content: z.string(),
      content_hash: z.string(),
      owner_gate: S.OwnerGateEcho.optional(),
    }),
    kind: 'overwrite',
    run: (s, { content, owner_code, owner_ack, reason, ...ref }, who) =>
      s.acceptNextStep(
        ref,
        {
          ...(content ? { content } : {}),
          ...(owner_code ? { owner_code } : {}),
          ...(owner_ack !== undefined ? { owner_ack } : {}),
          ...(reason ? { reason } : {}),
        },
        who,
      ),
    summary: () => 'next step accepted',
  }),
  missionTool({
    name: 'hai_checkpoint',
    title: 'Checkpoint',
    description: 'Records a checkpoint of lanes, focus, the active mission and the next step.',
    args: { ...projectRef, note: optionalText(2000, 'what you want to remember') },
    output: S.Checkpoint,
    kind: 'change',
    run: (s, { note, ...ref }, who) => s.checkpoint(ref, note, who),
    summary: (c) => `checkpoint ${c.checkpoint_id}`,
  }),
  missionTool({
    name: 'hai_recover',
    title: 'Recover',
    description:
      'Read-only advice: the smallest next action from the latest (or a named) checkpoint and what changed since.',
    args: { ...projectRef, checkpoint_id: CheckpointId.optional() },
    output: z.object({
      checkpoint: S.Checkpoint.nullable(),
      advice: z.string(),
      changes_state: z.literal(false),
    }),
    kind: 'query',
    run: (s, { checkpoint_id, ...ref }, who) => s.recover(ref, checkpoint_id, who),
    summary: (r) => r.advice,
  }),
];

/** The daily loop beyond the gate matrix: intake → distill → start → drift check → proof → stop. */
export const dailyTools: AnyTool[] = [
  missionTool({
    name: 'hai_intake',
    title: 'Intake',
    description:
      'Captures a raw thought immutably. Returns an intake id only: never actionable, never starts an agent.',
    args: { ...projectRef, raw: text(20_000, 'the raw thought') },
    output: z.object({ intake_id: z.string(), actionable: z.literal(false) }),
    kind: 'change',
    run: (s, { raw, ...ref }, who) => s.intake(ref, raw, who),
    summary: (r) => `intake ${r.intake_id}`,
  }),
  missionTool({
    name: 'hai_distill',
    title: 'Distill',
    description:
      'Reduces an intake to exactly one decision and one next step; everything in parklist goes to the inbox.',
    args: {
      ...projectRef,
      intake_id: IntakeId,
      decision: text(2000, 'the one decision'),
      next_step: text(2000, 'the one next step'),
      parklist: z.array(z.string().min(1).max(2000)).max(50).optional(),
    },
    output: z.object({
      intake_id: z.string(),
      decision: z.string(),
      next_step: z.string(),
      parked_item_ids: z.array(z.string()),
      parked_count: z.number().int(),
    }),
    kind: 'change',
    run: (s, { intake_id, decision, next_step, parklist, ...ref }, who) =>
      s.distill(ref, { intake_id, decision, next_step, ...(parklist ? { parklist } : {}) }, who),
    summary: (r) => `decided: ${r.decision}`,
  }),
  missionTool({
    name: 'hai_stop',
    title: 'Stop the day',
    description:
      'Ends the day: records the three answers, revokes the active mission’s leases. Missions stay open; no next mission is planned.',
    args: {
      ...projectRef,
      day: text(32, 'the day, e.g. 2026-12-01'),
      loop_closed: z.boolean(),
      clearer: text(2000, 'what is clearer now'),
      agency_gained: text(2000, 'what you can now do yourself'),
      manual_practice: z.array(z.string().min(1).max(500)).max(50).optional(),
    },
    output: z.object({
      day: z.string(),
      revoked_sessions: z.array(z.string()),
      status: z.literal('day_stopped'),
      missions_closed: z.literal(false),
      next_mission: z.null().describe('a stop plans no next mission'),
      manual_practice: z.array(z.string()).describe('the logbook, blank entries dropped'),
      next_mission_planned: z.literal(false),
    }),
    kind: 'change',
    run: (s, { project_path, project_id, device_id, ...args }, who) =>
      s.stop({ project_path, project_id, device_id }, args, who),
    summary: (r) => `day ${r.day} stopped; ${r.revoked_sessions.length} lease(s) revoked`,
  }),
];
