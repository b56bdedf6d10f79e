import { Id } from '../../commands/ids.js';
import { activeLanes, lastOf, type Desk } from '../../commands/missions/desk-state.js';
import { missionsError } from '../../commands/missions/errors.js';
import { sha256Hex } from '../../events/codec.js';
import type { LaneStatus } from '../../events/missions/index.js';
import { newDashedId, newId } from '../../events/ids.js';
import type { Caller, GateArgs, MissionsCore, ProjectRef } from './index.js';
import { ARTIFACT_DIR } from './artifacts.js';

/** The day around missions: lanes, inbox, next steps, checkpoints, intake, stop, mounts. */
export const dayOps = (core: MissionsCore) => {
  const { run, runGated, resolve, now } = core;
  const park = async (ref: ProjectRef, args: { text: string; tags?: string[] }, caller: Caller) => {
    const project = await resolve(ref, caller);
    const item_id = newId('item');
    const data = {
      project_id: project.project_id,
      now: now(),
      item_id,
      text: args.text,
      tags: args.tags ?? [],
    };
    const out = await run(project, { type: 'Park', data }, caller, (s) => ({
      item_id,
      inbox_count: s.inbox.size,
      active_lanes_changed: false as const,
    }));
    return { project, ...out };
  };

  const parkItem = async (
    ref: ProjectRef,
    args: {
      idea: string;
      origin_session_id: string;
      trigger_event: string;
      mission_id: string;
      rationale: string;
    },
    caller: Caller,
  ) => {
    const project = await resolve(
      { ...ref, via: { kind: 'mission', id: args.mission_id } },
      caller,
    );
    const item_id = newId('item');
    const data = { ...args, project_id: project.project_id, now: now(), item_id };
    const out = await run(project, { type: 'ParkItem', data }, caller, () => ({
      item_id,
      execution_right: false as const,
      contract_unchanged: true as const,
    }));
    return { project, ...out };
  };

  const setFocus = async (
    ref: ProjectRef,
    args: { focus_id: string; label?: string; status?: LaneStatus },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    const data = {
      project_id: project.project_id,
      focus_id: args.focus_id,
      label: args.label ?? null,
      status: args.status ?? 'ACTIVE',
    };
    const out = await run(project, { type: 'SetFocus', data }, caller, (s: Desk) => ({
      focus_id: s.focus_id,
      active_lanes: activeLanes(s),
      lanes: [...s.lanes.values()],
    }));
    return { project, ...out };
  };

  const proposeNextStep = async (ref: ProjectRef, content: string, caller: Caller) => {
    const project = await resolve(ref, caller);
    const out = await run(
      project,
      { type: 'ProposeNextStep', data: { project_id: project.project_id, now: now(), content } },
      caller,
      (s) => ({
        file: `${ARTIFACT_DIR}/NEXT_STEP.proposed.md`,
        content_hash: s.proposal!.content_hash,
        canonical: false as const,
      }),
    );
    return { project, ...out };
  };

  const acceptNextStep = async (
    ref: ProjectRef,
    args: GateArgs & { content?: string },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    // A plain accept approves the current proposal: its text is pinned here, so the owner reads
    // what the fingerprint binds (a proposal changed since has another one: no_pending_challenge).
    const content = args.content ?? (await core.desk(project.project_id)).proposal?.content ?? null;
    const out = await runGated(
      project,
      {
        args,
        operation: 'hai_accept_next_step',
        change: { content_sha256: content === null ? null : sha256Hex(content) },
        ...(content === null ? {} : { approves: content }),
      },
      (gate) => ({
        type: 'AcceptNextStep',
        data: { project_id: project.project_id, now: now(), content, gate },
      }),
      caller,
      (s) => ({
        file: `${ARTIFACT_DIR}/NEXT_STEP.md`,
        content: s.next_step!.content,
        content_hash: s.next_step!.content_hash,
      }),
    );
    return { project, ...out };
  };

  const checkpoint = async (ref: ProjectRef, note: string | undefined, caller: Caller) => {
    const project = await resolve(ref, caller);
    const checkpoint_id = newId('checkpoint');
    const out = await run(
      project,
      {
        type: 'Checkpoint',
        data: { project_id: project.project_id, now: now(), checkpoint_id, note: note ?? null },
      },
      caller,
      (s) => lastOf(s.checkpoints)!,
    );
    return { project, ...out };
  };

  const bindProject = async (
    args: {
      project_id: string;
      device_id: string;
      local_path: string;
      owner_ack: boolean;
      reason: string;
    },
    caller: Caller,
  ) => {
    if (!Id.safeParse(args.project_id).success)
      throw missionsError(
        'invalid_args',
        'project_id uses letters, numbers, ".", "_", ":", "/" or "-"',
      );
    const out = await core.mounts.bind(args, caller);
    const project = { project_id: args.project_id, root: out.root, device_id: args.device_id };
    return {
      project,
      position: out.position,
      value: {
        project_id: args.project_id,
        device_id: args.device_id,
        local_path: out.root,
        root_hash: out.root_hash,
        mounts: Object.keys(out.result),
      },
    };
  };

  const intake = async (ref: ProjectRef, raw: string, caller: Caller) => {
    const project = await resolve(ref, caller);
    const intake_id = newDashedId('I');
    const out = await run(
      project,
      { type: 'Intake', data: { project_id: project.project_id, now: now(), intake_id, raw } },
      caller,
      () => ({ intake_id, actionable: false as const }),
    );
    return { project, ...out };
  };

  const distill = async (
    ref: ProjectRef,
    args: { intake_id: string; decision: string; next_step: string; parklist?: string[] },
    caller: Caller,
  ) => {
    const project = await resolve({ ...ref, via: { kind: 'intake', id: args.intake_id } }, caller);
    const parklist = args.parklist ?? [];
    const data = {
      project_id: project.project_id,
      now: now(),
      intake_id: args.intake_id,
      decision: args.decision,
      next_step: args.next_step,
      parklist,
      item_ids: parklist.map(() => newId('item')),
    };
    const out = await run(project, { type: 'Distill', data }, caller, () => ({
      intake_id: args.intake_id,
      decision: args.decision,
      next_step: args.next_step,
      parked_item_ids: data.item_ids,
      parked_count: data.item_ids.length,
    }));
    return { project, ...out };
  };

  const stop = async (
    ref: ProjectRef,
    args: {
      day: string;
      loop_closed: boolean;
      clearer: string;
      agency_gained: string;
      manual_practice?: string[];
    },
    caller: Caller,
  ) => {
    const project = await resolve(ref, caller);
    const data = {
      ...args,
      project_id: project.project_id,
      now: now(),
      // HAI-MCP drops blank entries of the logbook
      manual_practice: (args.manual_practice ?? []).filter((p) => p.trim() !== ''),
    };
    const out = await run(project, { type: 'Stop', data }, caller, (_s, events) => {
      const revoked = events.find((e) => e.type === 'lease.revoked');
      return {
        status: 'day_stopped' as const,
        day: args.day,
        revoked_sessions: revoked?.type === 'lease.revoked' ? revoked.data.session_ids : [],
        missions_closed: false as const,
        next_mission_planned: false as const,
        next_mission: null,
        manual_practice: data.manual_practice,
      };
    });
    return { project, ...out };
  };

  return {
    park,
    parkItem,
    setFocus,
    proposeNextStep,
    acceptNextStep,
    checkpoint,
    bindProject,
    intake,
    distill,
    stop,
  };
};
