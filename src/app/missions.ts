import { runCommand } from '../commands/handler.js';
import { missionsError } from '../commands/missions/errors.js';
import { deskDecider, deskStream } from '../commands/missions/desk.js';
import type { DeskCommand } from '../commands/missions/desk-commands.js';
import type { DeskEvent } from '../commands/missions/desk-events.js';
import type { Desk } from '../commands/missions/desk-state.js';
import {
  MOUNT_STREAM,
  implicitProjectId,
  mountDecider,
  type BindProject,
  type MountTable,
} from '../commands/missions/mounts.js';
import {
  gateRefusal,
  normalizeOwnerCode,
  type GateInput,
} from '../commands/missions/owner-gate.js';
import { principalId, type Principal } from '../commands/principal.js';
import { sha256Hex } from '../events/codec.js';
import { newId } from '../events/ids.js';
import type { App } from './app.js';
import { renderArtifacts, syncArtifacts } from './missions-artifacts.js';
import { missionsConfigFromEnv, type MissionsConfig } from './missions-config.js';
import { ownerChannel } from './missions-owner-channel.js';
import { canonicalRoot } from './missions-paths.js';

/**
 * The missions context at its edges: which project a call means, the owner channel, the clock,
 * and the artifact files. Deciders stay pure; this is where ids, `now`, random codes and file
 * I/O come from.
 */

/** How a call names its project: a directory, or a logical project id (with a device). */
export type ProjectRef = { project_path?: string; project_id?: string; device_id?: string };
export type Resolved = { project_id: string; root: string | null; device_id: string };

/** The owner-gate arguments a gated tool takes. */
export type GateArgs = { owner_code?: string; owner_ack?: boolean; reason?: string };

export const missionsCore = (app: App, config: MissionsConfig) => {
  const { log } = app;
  const channel = ownerChannel(config.ownerDir, app.dataDir);
  const now = () => app.clock().toISOString();
  const meta = (principal: Principal) => ({
    actor_id: principalId(principal),
    actor_role: principal.kind === 'system' ? 'SYSTEM' : 'AGENT',
    correlation_id: null,
    causation_event_id: null,
  });

  const mounts = async (): Promise<MountTable> =>
    (await log.aggregateStream(MOUNT_STREAM, mountDecider)).state;
  const desk = async (projectId: string): Promise<Desk> =>
    (await log.aggregateStream(deskStream(projectId), deskDecider)).state;

  const bind = (command: BindProject, principal: Principal) =>
    runCommand(log, {
      decider: mountDecider,
      stream: MOUNT_STREAM,
      command,
      meta: meta(principal),
      respond: (table) => table,
    });

  /** A directory is its own project until bound: the first use mounts it on this device. */
  const byPath = async (path: string, principal: Principal): Promise<Resolved> => {
    const root = await canonicalRoot(path);
    const root_hash = sha256Hex(root);
    const mounted = (await mounts()).roots[root_hash];
    if (mounted) return { project_id: mounted.project_id, root, device_id: mounted.device_id };
    const project_id = implicitProjectId(root_hash);
    const data = {
      project_id,
      device_id: config.deviceId,
      local_path: root,
      root_hash,
      implicit: true,
      owner_ack: false,
      reason: 'first use by path',
    };
    await bind({ type: 'BindProject', data }, principal);
    return { project_id, root, device_id: config.deviceId };
  };

  const resolve = async (ref: ProjectRef, principal: Principal): Promise<Resolved> => {
    if (ref.project_path !== undefined) return byPath(ref.project_path, principal);
    if (ref.project_id === undefined)
      throw missionsError('invalid_args', 'name the project: project_path or project_id');
    const devices = (await mounts()).projects[ref.project_id] ?? {};
    if (Object.keys(devices).length === 0)
      throw missionsError('missing_project', 'no such project: bind it with hai_bind_project', {
        project_id: ref.project_id,
      });
    const device_id = ref.device_id ?? config.deviceId;
    return { project_id: ref.project_id, root: devices[device_id]?.local_path ?? null, device_id };
  };

  // one artifact sync at a time per project, always from the latest state, coalesced
  const syncing = new Map<string, { run: Promise<void>; again: boolean }>();
  let artifactWrites = 0;
  const syncOnce = async (projectId: string, root: string) => {
    const changed = await syncArtifacts(root, renderArtifacts(await desk(projectId)));
    artifactWrites += changed.length;
  };
  const refreshArtifacts = (project: Resolved): Promise<void> => {
    const { project_id, root } = project;
    if (root === null) return Promise.resolve();
    const current = syncing.get(project_id);
    if (current) {
      current.again = true;
      return current.run;
    }
    const entry = { run: Promise.resolve(), again: false };
    entry.run = (async () => {
      try {
        do {
          entry.again = false;
          await syncOnce(project_id, root);
        } while (entry.again);
      } finally {
        syncing.delete(project_id);
      }
    })();
    syncing.set(project_id, entry);
    return entry.run;
  };

  /** Runs one desk command; refreshes the artifacts when it wrote; answers the gate's refusal. */
  const run = async <R>(
    project: Resolved,
    command: DeskCommand,
    principal: Principal,
    respond: (state: Desk, events: DeskEvent[]) => R,
    idempotency?: { key: string; operation: string; args: Record<string, unknown> },
  ) => {
    const outcome = await runCommand(log, {
      decider: deskDecider,
      stream: deskStream(project.project_id),
      command,
      meta: meta(principal),
      ...(idempotency
        ? {
            idempotency: {
              ...idempotency,
              projectId: project.project_id,
              callerId: principalId(principal),
            },
          }
        : {}),
      respond: (state, events) => {
        // a held gate wrote its own events and answers an error: there is no result to shape
        const refusal = gateRefusal(state, events);
        return { refusal, value: refusal ? undefined : respond(state, events), events };
      },
    });
    const { refusal, events } = outcome.result;
    if (events?.length) await refreshArtifacts(project);
    await settleCodes(events ?? []);
    if (refusal) throw refusal;
    return {
      value: outcome.result.value as R,
      position: outcome.position,
      replayed: outcome.replayed,
    };
  };

  /** A spent or cancelled code is removed from the owner channel. */
  const settleCodes = async (events: readonly DeskEvent[]) => {
    for (const e of events)
      if (e.type === 'owner_challenge.consumed' || e.type === 'owner_challenge.cancelled')
        await channel.discard(e.data.challenge_id);
  };

  /**
   * The gate input of a gated call. Asking (nonce, no code) delivers a fresh code first, so the
   * decider can record its hash; if a challenge for this change is pending, the fresh one is
   * discarded and the pending one answered.
   */
  const gate = async (
    project: Resolved,
    args: GateArgs,
    operation: string,
    change: unknown,
  ): Promise<{ input: GateInput; discard: () => Promise<void> }> => {
    const reason = args.reason ?? null;
    if (config.gateMode === 'ack_legacy')
      return {
        input: { mode: 'ack_legacy', owner_ack: args.owner_ack === true, reason },
        discard: async () => {},
      };
    const challenge_id = newId('ch');
    const expires_at = new Date(app.clock().getTime() + config.codeTtlSeconds * 1000).toISOString();
    if (args.owner_code !== undefined) {
      const code = normalizeOwnerCode(args.owner_code);
      if (code === undefined)
        throw missionsError(
          'malformed_owner_code',
          'an owner code is 8 letters and digits (e.g. K7F3-M9QW); no attempt was used',
        );
      const unused = {
        challenge_id,
        code_salt: '',
        code_hash: '',
        channel: channel.name,
        expires_at,
      };
      return {
        input: { mode: 'nonce', owner_code: code, reason, fresh: unused },
        discard: async () => {},
      };
    }
    const fresh = await channel.deliver(
      { challenge_id, expires_at },
      { project_id: project.project_id, operation, change },
    );
    return {
      input: { mode: 'nonce', owner_code: null, reason, fresh },
      discard: () => channel.discard(challenge_id),
    };
  };

  /** Runs a gated command: a fresh code no challenge took leaves the owner channel. */
  const runGated = async <R>(
    project: Resolved,
    gated: { args: GateArgs; operation: string; change: unknown },
    command: (input: GateInput) => DeskCommand,
    principal: Principal,
    respond: (state: Desk, events: DeskEvent[]) => R,
  ) => {
    const { input, discard } = await gate(project, gated.args, gated.operation, gated.change);
    try {
      return await run(project, command(input), principal, respond);
    } finally {
      if (input.mode === 'nonce' && input.owner_code === null) {
        const id = input.fresh.challenge_id;
        const taken = Object.values((await desk(project.project_id)).challenges).some(
          (c) => c.challenge_id === id,
        );
        if (!taken) await discard();
      }
    }
  };

  return {
    log,
    meta,
    config,
    channel,
    now,
    mounts,
    desk,
    bind,
    resolve,
    run,
    runGated,
    refreshArtifacts,
    artifactWrites: () => artifactWrites,
  };
};

export type MissionsCore = ReturnType<typeof missionsCore>;
export const defaultMissionsConfig = missionsConfigFromEnv;
