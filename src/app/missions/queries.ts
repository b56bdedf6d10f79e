import { join } from 'node:path';
import { MAX_ACTIVE_LANES } from '../../commands/missions/decide-day.js';
import { activeLanes, itemsOf, lastOf, liveLeases } from '../../commands/missions/desk-state.js';
import { missionsError } from '../../commands/missions/errors.js';
import type { CallRef, Caller, MissionsCore, ProjectRef } from './index.js';
import { ARTIFACT_DIR, artifactDrift, readArtifactFiles, renderArtifacts } from './artifacts.js';
import { inProject, refuseLinkedArtifacts } from './paths.js';

/** hai_read_artifacts waits this long for the files to be written up to the log's head. */
const ARTIFACT_WAIT_MS = 2_000;

/** The read-only rows: health, status, the next step, the artifacts on disk, recovery advice. */
export const queryOps = (core: MissionsCore) => {
  const { resolve, now } = core;
  const failureOf = (projectId: string) => {
    const failed = core.artifactFailure(projectId);
    return failed ? { reason: failed.reason, at: failed.at } : null;
  };
  /** The project a read names, refused when its artifact directory links out of it. */
  const reachable = async (ref: CallRef, caller: Caller) => {
    const project = await resolve(ref, caller);
    if (project.root !== null) await refuseLinkedArtifacts(project.root, ARTIFACT_DIR);
    return project;
  };
  const at = async (ref: CallRef, caller: Caller) => {
    const project = await reachable(ref, caller);
    return { project, desk: await core.view(project.project_id) };
  };

  const status = async (ref: ProjectRef, caller: Caller) => {
    const { project, desk } = await at(ref, caller);
    const mission = desk.active_mission_id ? desk.missions.get(desk.active_mission_id)! : null;
    const t = now();
    return {
      project,
      value: {
        project_id: project.project_id,
        root: project.root,
        focus_id: desk.focus_id,
        active_lanes: activeLanes(desk),
        max_active_lanes: MAX_ACTIVE_LANES,
        inbox_count: desk.inbox.size,
        parked_count: desk.parked.size,
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
        pending_owner_challenges: [...desk.challenges.values()].filter(
          (c) => c.status === 'pending' && c.expires_at > t,
        ).length,
      },
    };
  };

  const health = async (ref: ProjectRef | undefined, caller: Caller) => {
    const { config } = core;
    const honor = config.gateMode === 'ack_legacy';
    const project = ref && (ref.project_path || ref.project_id) ? await resolve(ref, caller) : null;
    return {
      project,
      value: {
        ok: true,
        // HAI-MCP's HAI_HOME: where the server keeps its state. Ours is the data directory
        // (`intentlog mcp` takes HAI_HOME as it, unless --data-dir or INTENTLOG_HOME is set).
        hai_home: core.dataDir,
        owner_gate: {
          mode: config.gateMode,
          channel: core.channel.name,
          honor_system: honor,
          warning: honor
            ? 'ack_legacy: owner_ack=true comes from the agent itself; this is an honor system, not an owner gate'
            : null,
        },
        device_id: config.deviceId,
        project: project && {
          project_id: project.project_id,
          root: project.root,
          artifact_failure: failureOf(project.project_id),
        },
        config_warnings: config.warnings,
      },
    };
  };

  const getNextStep = async (ref: ProjectRef, caller: Caller) => {
    const project = await reachable(ref, caller);
    const desk = (await core.viewHead(project.project_id)) ?? { next_step: null, proposal: null };
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
  const readArtifacts = async (ref: ProjectRef, maxChars: number, caller: Caller) => {
    const { project, desk } = await at(ref, caller);
    if (project.root === null)
      throw missionsError('device_mount_required', 'this device has no mount of the project', {
        device_id: project.device_id,
      });
    const root = project.root;
    // the files as the log implies them, unless the disk is slow: then what is there, drift told
    await core.artifactsSettled(ARTIFACT_WAIT_MS);
    const expected = renderArtifacts(desk);
    const { texts, drift } = await inProject(async () => ({
      texts: await readArtifactFiles(root, Object.keys(expected)),
      drift: await artifactDrift(root, expected),
    }));
    const artifacts = Object.entries(texts).map(([name, text]) => ({
      name,
      present: text !== undefined,
      chars: text?.length ?? 0,
      truncated: (text?.length ?? 0) > maxChars,
      content: text?.slice(0, maxChars) ?? null,
    }));
    return { project, value: { directory: join(root, ARTIFACT_DIR), artifacts, drift } };
  };

  /** The smallest next action from a checkpoint and what happened since (advice, no change). */
  const recover = async (ref: ProjectRef, checkpointId: string | undefined, caller: Caller) => {
    const via = checkpointId ? { via: { kind: 'checkpoint' as const, id: checkpointId } } : {};
    const { project, desk } = await at({ ...ref, ...via }, caller);
    const cp = checkpointId
      ? itemsOf(desk.checkpoints).find((c) => c.checkpoint_id === checkpointId)
      : lastOf(desk.checkpoints);
    if (checkpointId && !cp)
      throw missionsError('invalid_args', 'no such checkpoint', { checkpoint_id: checkpointId });
    const mission = desk.active_mission_id ? desk.missions.get(desk.active_mission_id)! : null;
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
