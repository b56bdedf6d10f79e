import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_ACTIVE_LANES } from '../commands/missions/decide-day.js';
import { activeLanes, liveLeases } from '../commands/missions/desk-state.js';
import { missionsError } from '../commands/missions/errors.js';
import type { Principal } from '../commands/principal.js';
import type { MissionsCore, ProjectRef } from './missions.js';
import { ARTIFACT_DIR, artifactDrift, renderArtifacts } from './missions-artifacts.js';

/** The read-only rows: health, status, the next step, the artifacts on disk, recovery advice. */
export const queryOps = (core: MissionsCore) => {
  const { resolve, now } = core;
  const at = async (ref: ProjectRef, principal: Principal) => {
    const project = await resolve(ref, principal);
    return { project, desk: await core.view(project.project_id) };
  };

  const status = async (ref: ProjectRef, principal: Principal) => {
    const { project, desk } = await at(ref, principal);
    const mission = desk.active_mission_id ? desk.missions[desk.active_mission_id]! : null;
    const t = now();
    return {
      project,
      value: {
        project_id: project.project_id,
        root: project.root,
        focus_id: desk.focus_id,
        active_lanes: activeLanes(desk),
        max_active_lanes: MAX_ACTIVE_LANES,
        inbox_count: desk.inbox.length,
        parked_count: desk.parked.length,
        active_mission: mission && {
          mission_id: mission.mission_id,
          contract_version: mission.contract_version,
          contract_hash: mission.contract_hash,
          objective: mission.contract.objective,
        },
        live_sessions: mission
          ? liveLeases(desk, mission.mission_id, t).map((l) => l.session_id)
          : [],
        next_step: { accepted: desk.next_step !== null, proposed: desk.proposal !== null },
        pending_owner_challenges: Object.values(desk.challenges).filter(
          (c) => c.status === 'pending' && c.expires_at > t,
        ).length,
      },
    };
  };

  const health = async (ref: ProjectRef | undefined, principal: Principal) => {
    const { config } = core;
    const honor = config.gateMode === 'ack_legacy';
    const project =
      ref && (ref.project_path || ref.project_id) ? await resolve(ref, principal) : null;
    return {
      project,
      value: {
        ok: true,
        owner_gate: {
          mode: config.gateMode,
          channel: core.channel.name,
          honor_system: honor,
          warning: honor
            ? 'ack_legacy: owner_ack=true comes from the agent itself; this is an honor system, not an owner gate'
            : null,
        },
        device_id: config.deviceId,
        project: project && { project_id: project.project_id, root: project.root },
        config_warnings: config.warnings,
      },
    };
  };

  const getNextStep = async (ref: ProjectRef, principal: Principal) => {
    const { project, desk } = await at(ref, principal);
    return {
      project,
      value: {
        next_step: desk.next_step?.content ?? null,
        accepted_at: desk.next_step?.accepted_at ?? null,
        proposed: desk.proposal?.content ?? null,
      },
    };
  };

  /** Reads the files on disk (what a person sees) and says where they drifted from the log. */
  const readArtifacts = async (ref: ProjectRef, maxChars: number, principal: Principal) => {
    const { project, desk } = await at(ref, principal);
    if (project.root === null)
      throw missionsError('device_mount_required', 'this device has no mount of the project', {
        device_id: project.device_id,
      });
    const expected = renderArtifacts(desk);
    const dir = join(project.root, ARTIFACT_DIR);
    const artifacts = await Promise.all(
      Object.keys(expected).map(async (name) => {
        const text = await readFile(join(dir, name), 'utf8').catch(() => null);
        return {
          name,
          present: text !== null,
          chars: text?.length ?? 0,
          truncated: (text?.length ?? 0) > maxChars,
          content: text?.slice(0, maxChars) ?? null,
        };
      }),
    );
    return {
      project,
      value: { directory: dir, artifacts, drift: await artifactDrift(project.root, expected) },
    };
  };

  /** The smallest next action from a checkpoint and what happened since (advice, no change). */
  const recover = async (
    ref: ProjectRef,
    checkpointId: string | undefined,
    principal: Principal,
  ) => {
    const { project, desk } = await at(ref, principal);
    const cp = checkpointId
      ? desk.checkpoints.find((c) => c.checkpoint_id === checkpointId)
      : desk.checkpoints.at(-1);
    if (checkpointId && !cp)
      throw missionsError('invalid_args', 'no such checkpoint', { checkpoint_id: checkpointId });
    const mission = desk.active_mission_id ? desk.missions[desk.active_mission_id]! : null;
    const advice = !cp
      ? 'No checkpoint yet: call hai_status, then hai_checkpoint once you know where you are.'
      : cp.mission_id && (!mission || mission.mission_id !== cp.mission_id)
        ? `Mission ${cp.mission_id} is no longer active: read NEXT_STEP.md (hai_get_next_step) before opening another.`
        : mission && cp.contract_version !== mission.contract_version
          ? `The contract moved from v${cp.contract_version} to v${mission.contract_version}: re-read it (hai_get_contract) under a new session lease.`
          : desk.next_step
            ? `Resume with the accepted next step: ${desk.next_step.content}`
            : 'Propose one next step (hai_propose_next_step) and have the owner accept it.';
    return { project, value: { checkpoint: cp ?? null, advice, changes_state: false as const } };
  };

  return { status, health, getNextStep, readArtifacts, recover };
};
