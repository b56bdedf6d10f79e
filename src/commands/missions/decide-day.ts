import { sha256Hex } from '../../events/codec.js';
import type { DeskCommandOf } from './desk-commands.js';
import type { DeskEvent } from './desk-events.js';
import { activeLanes, type Desk } from './desk-state.js';
import { missionsError } from './errors.js';
import { changeFingerprint, decideGate, requireApprovalAttempt } from './owner-gate.js';

/** The day around missions: lanes, inbox and parking, intake and distill, next steps, checkpoints. */

export const MAX_ACTIVE_LANES = 2;

export const setFocus = (desk: Desk, cmd: DeskCommandOf<'SetFocus'>): DeskEvent[] => {
  const active = activeLanes(desk);
  const lane = desk.lanes.get(cmd.focus_id);
  if (cmd.status === 'ACTIVE' && lane?.status !== 'ACTIVE' && active.length >= MAX_ACTIVE_LANES)
    throw missionsError(
      'max_active_lanes',
      `at most ${MAX_ACTIVE_LANES} lanes may be ACTIVE; pause or finish one`,
      {
        active_lanes: active,
      },
    );
  if (
    lane &&
    lane.status === cmd.status &&
    lane.label === cmd.label &&
    (cmd.status !== 'ACTIVE' || desk.focus_id === cmd.focus_id)
  )
    return [];
  return [{ type: 'focus_lane.set', data: cmd }];
};

export const park = (desk: Desk, cmd: DeskCommandOf<'Park'>): DeskEvent[] => {
  const data = {
    project_id: desk.project_id,
    item_id: cmd.item_id,
    text: cmd.text,
    tags: cmd.tags,
    source: null,
    parked_at: cmd.now,
  };
  return [{ type: 'inbox_item.parked', data }];
};

export const parkItem = (desk: Desk, cmd: DeskCommandOf<'ParkItem'>): DeskEvent[] => {
  if (!desk.missions.get(cmd.mission_id))
    throw missionsError('invalid_args', 'no such mission', { mission_id: cmd.mission_id });
  if (!cmd.rationale.trim()) throw missionsError('invalid_args', 'parking needs a rationale');
  if (desk.leases.get(cmd.origin_session_id)?.mission_id !== cmd.mission_id)
    throw missionsError('invalid_args', 'origin_session_id must belong to the stated mission', {
      origin_session_id: cmd.origin_session_id,
      mission_id: cmd.mission_id,
    });
  const { now, ...item } = cmd;
  return [
    { type: 'mission_item.parked', data: { ...item, project_id: desk.project_id, parked_at: now } },
  ];
};

export const intake = (desk: Desk, cmd: DeskCommandOf<'Intake'>): DeskEvent[] => [
  {
    type: 'intake.captured',
    data: {
      project_id: desk.project_id,
      intake_id: cmd.intake_id,
      raw: cmd.raw,
      captured_at: cmd.now,
    },
  },
];

export const distill = (desk: Desk, cmd: DeskCommandOf<'Distill'>): DeskEvent[] => {
  // exactly one decision and one next step: a line each, not a bundled multi-line plan
  for (const field of ['decision', 'next_step'] as const)
    if (/[\r\n]/.test(cmd[field]))
      throw missionsError(
        'invalid_args',
        `${field} must be a single item (no bundled multi-line plan); park the rest`,
        { field },
      );
  const found = desk.intakes.get(cmd.intake_id);
  if (!found) throw missionsError('invalid_args', 'no such intake', { intake_id: cmd.intake_id });
  if (found.distilled)
    throw missionsError('invalid_args', 'this intake was distilled already', {
      intake_id: cmd.intake_id,
    });
  const { project_id } = desk;
  const parked: DeskEvent[] = cmd.parklist.map((text, i) => ({
    type: 'inbox_item.parked',
    data: {
      project_id,
      item_id: cmd.item_ids[i]!,
      text,
      tags: ['distill'],
      source: cmd.intake_id,
      parked_at: cmd.now,
    },
  }));
  const data = {
    project_id,
    intake_id: cmd.intake_id,
    decision: cmd.decision,
    next_step: cmd.next_step,
    parked_item_ids: cmd.item_ids.slice(0, cmd.parklist.length),
  };
  return [{ type: 'intake.distilled', data }, ...parked];
};

export const proposeNextStep = (desk: Desk, cmd: DeskCommandOf<'ProposeNextStep'>): DeskEvent[] => {
  const content_hash = `sha256:${sha256Hex(cmd.content)}`;
  if (desk.proposal?.content_hash === content_hash) return [];
  return [
    {
      type: 'next_step.proposed',
      data: {
        project_id: desk.project_id,
        content: cmd.content,
        content_hash,
        proposed_at: cmd.now,
      },
    },
  ];
};

export const acceptNextStep = (desk: Desk, cmd: DeskCommandOf<'AcceptNextStep'>): DeskEvent[] => {
  const content = cmd.content ?? desk.proposal?.content;
  if (content === undefined) requireApprovalAttempt(cmd.gate, 'hai_accept_next_step');
  if (content === undefined)
    throw missionsError(
      'no_proposal',
      'nothing proposed: call hai_propose_next_step or pass content',
    );
  const content_hash = `sha256:${sha256Hex(content)}`;
  const fingerprint = changeFingerprint('hai_accept_next_step', desk.project_id, { content_hash });
  const gate = decideGate(desk, cmd.gate, 'hai_accept_next_step', fingerprint, cmd.now);
  if (!gate.passed) return gate.events;
  const data = {
    project_id: desk.project_id,
    content,
    content_hash,
    gate: gate.gate,
    accepted_at: cmd.now,
  };
  return [...gate.events, { type: 'next_step.accepted', data }];
};

export const checkpoint = (desk: Desk, cmd: DeskCommandOf<'Checkpoint'>): DeskEvent[] => {
  const mission = desk.active_mission_id ? desk.missions.get(desk.active_mission_id) : undefined;
  const data = {
    project_id: desk.project_id,
    checkpoint_id: cmd.checkpoint_id,
    note: cmd.note,
    focus_id: desk.focus_id,
    active_lanes: activeLanes(desk),
    mission_id: mission?.mission_id ?? null,
    contract_version: mission?.contract_version ?? null,
    next_step: desk.next_step?.content ?? null,
    recorded_at: cmd.now,
  };
  return [{ type: 'mission_checkpoint.recorded', data }];
};
