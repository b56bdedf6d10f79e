import { runCommand, runMultiStreamCommand, type Idempotency } from '../../commands/handler.js';
import { missionsError } from '../../commands/missions/errors.js';
import { deskDecider, deskStream } from '../../commands/missions/desk.js';
import type { DeskCommand } from '../../commands/missions/desk-commands.js';
import type { DeskEvent } from '../../commands/missions/desk-events.js';
import { challengeById, type Desk } from '../../commands/missions/desk-state.js';
import {
  gateRefusal,
  normalizeOwnerCode,
  type GateInput,
} from '../../commands/missions/owner-gate.js';
import { principalId, type Principal } from '../../commands/principal.js';
import { sha256Hex } from '../../events/codec.js';
import { newDashedId } from '../../events/ids.js';
import type { App } from '../app.js';
import { MISSIONS_MODEL, missionsQueries } from '../../projections/missions/desk.js';
import { artifactSinkOf } from './artifact-sink.js';
import { checkArtifactDir } from './artifacts.js';
import { inProject } from './paths.js';
import { gatePassedOf, withGateEcho } from './gate-echo.js';
import type { GatePassed } from '../../events/missions/index.js';
import { missionsConfigFromEnv, type MissionsConfig } from './config.js';
import { ownerChannel } from './owner-channel.js';
import { callResolver, type CallRef } from './resolve.js';
import { missionsMounts, type Caller, type PendingMount, type Resolved } from './mounts.js';
import {
  decideMount,
  type MountStates,
  type MountStreamEvent,
  type ProjectMounts,
} from '../../commands/missions/mounts.js';
import type { Project } from '../../commands/project/index.js';
import type { RootHolder } from '../../commands/project/root.js';

export type { Caller, ProjectRef, Resolved } from './mounts.js';
export type { CallRef } from './resolve.js';

const sha256Of = (text: string) => `sha256:${sha256Hex(text)}`;

// One fold object for the process: the command path's fold cache is keyed by it.
const deskFold = {
  evolve: deskDecider.evolve as (s: Desk | MountStates, e: DeskEvent | MountStreamEvent) => Desk,
  initialState: deskDecider.initialState as () => Desk | MountStates,
};

/**
 * The missions context at its edges: which project a call means, the owner channel, the clock,
 * and the artifact files. Deciders stay pure; this is where ids, `now`, random codes and file
 * I/O come from.
 */

/** A caller outside any MCP session (the CLI, benches, tests): no declared roots. */
export const callerOf = (principal: Principal, roots: readonly string[] = []): Caller => ({
  principal,
  clientRoots: async () => roots,
});

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

  const desk = async (projectId: string): Promise<Desk> =>
    (await log.aggregateStream(deskStream(projectId), deskDecider)).state;
  const mounts = missionsMounts(app, config.deviceId, meta);
  /** The project a call names (or its id's, or the home project), for its caller; appends nothing. */
  const resolve: (ref: CallRef, caller: Caller) => Promise<Resolved> = callResolver(app, mounts);

  /**
   * The desk as the query tools show it: the missions read model, once it has folded the log
   * up to its head (read-your-writes across processes). Commands decide on `desk` instead.
   */
  const view = async (projectId: string): Promise<Desk> => {
    await app.waitFor(await log.head(), [MISSIONS_MODEL]);
    return missionsQueries(log.models).desk(projectId);
  };

  /** The desk's head alone, as fresh as `view`: one key, whatever the desk's history. */
  const viewHead = async (projectId: string) => {
    await app.waitFor(await log.head(), [MISSIONS_MODEL]);
    return missionsQueries(log.models).head(projectId);
  };

  /**
   * The artifact files written up to the log's head, or false when the sink did not get there
   * within `timeoutMs` (a slow disk) or runs in another process (this one is a follower).
   */
  const artifactsSettled = async (timeoutMs?: number): Promise<boolean> => {
    const sink = artifactSinkOf(app);
    return sink ? sink.settled(await log.head(), timeoutMs) : false;
  };

  /**
   * Runs one desk command; when it wrote, waits for the missions read model to fold it (never
   * for the artifact files: their sink follows on its own); answers the gate's refusal. A change in a directory not
   * yet mounted here mounts it (and creates its project) in the same append, only when the
   * change itself appends: a refused change leaves no project and no mount behind.
   */
  const run = async <R>(
    project: Resolved,
    command: DeskCommand,
    caller: Caller,
    respond: (state: Desk, events: DeskEvent[]) => R,
    idempotency?: { key: string; operation: string; args: Record<string, unknown> },
  ) => {
    const { principal } = caller;
    const root = project.root;
    if (root !== null) await inProject(() => checkArtifactDir(root));
    const answer = (state: Desk, events: DeskEvent[]) => {
      // a held gate wrote its own events and answers an error: there is no result to shape
      const refusal = gateRefusal(state, events);
      return { refusal, value: refusal ? undefined : respond(state, events), events };
    };
    const keyed = idempotency && {
      idempotency: {
        ...idempotency,
        projectId: project.project_id,
        callerId: principalId(principal),
      },
    };
    const outcome = project.mount
      ? await runMounting(project, project.mount, command, principal, answer, keyed)
      : await runCommand(log, {
          decider: deskDecider,
          stream: deskStream(project.project_id),
          command,
          meta: meta(principal),
          ...keyed,
          respond: answer,
        });
    const { refusal, events } = outcome.result;
    if (events?.length) await app.waitFor(outcome.position, [MISSIONS_MODEL]);
    await settleCodes(events ?? []);
    if (refusal) throw refusal;
    return {
      value: outcome.result.value as R,
      position: outcome.position,
      replayed: outcome.replayed,
    };
  };

  /** The desk command and the first mount of its directory, decided together. */
  const runMounting = <A>(
    project: Resolved,
    mount: PendingMount,
    command: DeskCommand,
    by: Principal,
    answer: (state: Desk, events: DeskEvent[]) => A,
    keyed: { idempotency: Idempotency } | undefined,
  ) => {
    const bind = { ...mount, project_id: project.project_id, implicit: true, by };
    return runMultiStreamCommand<Desk | MountStates, DeskEvent | MountStreamEvent, A>(log, {
      streams: [
        { name: deskStream(project.project_id), ...deskFold },
        ...mounts.mountStreams(project.project_id, mount.root_hash),
      ],
      decide: ([desk, kernel, holder, mounted]) => {
        const decided = deskDecider.decide(command, desk!.state as Desk);
        const events = Array.isArray(decided) ? decided : [decided];
        if (events.length === 0) return [[], [], [], []];
        const [bound, claimed, recorded] = decideMount(
          kernel!.state as Project,
          holder!.state as RootHolder,
          mounted!.state as ProjectMounts,
          { ...bind, owner_ack: false, create: true },
        );
        return [events, bound, claimed, recorded];
      },
      meta: meta(by),
      ...keyed,
      respond: ([desk], [events]) => answer(desk as Desk, events as DeskEvent[]),
    });
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
    principal: Principal,
    approves: string | null,
  ): Promise<{ input: GateInput; discard: () => Promise<void> }> => {
    const reason = args.reason ?? null;
    const caller = {
      actor_id: principalId(principal),
      owner: await mounts.mayOwn(project, principal),
    };
    // no code goes to the owner for a caller the gate will refuse anyway
    if (!caller.owner)
      return {
        input: { mode: 'ack_legacy', owner_ack: false, reason, caller },
        discard: async () => {},
      };
    if (config.gateMode === 'ack_legacy')
      return {
        input: { mode: 'ack_legacy', owner_ack: args.owner_ack === true, reason, caller },
        discard: async () => {},
      };
    const challenge_id = newDashedId('C');
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
        input: { mode: 'nonce', owner_code: code, reason, fresh: unused, caller },
        discard: async () => {},
      };
    }
    const fresh = await channel.deliver(
      { challenge_id, expires_at },
      {
        project_id: project.project_id,
        project_root: project.root,
        operation,
        change,
        approves: approves === null ? null : { text: approves, sha256: sha256Of(approves) },
      },
    );
    return {
      input: { mode: 'nonce', owner_code: null, reason, fresh, caller },
      discard: () => channel.discard(challenge_id),
    };
  };

  /** Runs a gated command: a fresh code no challenge took leaves the owner channel. */
  const runGated = async <R extends object>(
    project: Resolved,
    /** `approves`: what the owner reads the code approves (the text, a diff, a reason) */
    gated: { args: GateArgs; operation: string; change: unknown; approves?: string },
    command: (input: GateInput) => DeskCommand,
    caller: Caller,
    respond: (state: Desk, events: DeskEvent[]) => R,
  ) => {
    const { input, discard } = await gate(
      project,
      gated.args,
      gated.operation,
      gated.change,
      caller.principal,
      gated.approves ?? null,
    );
    try {
      let passed: GatePassed | undefined;
      const out = await run(project, command(input), caller, (s, events) => {
        passed = gatePassedOf(events);
        return respond(s, events);
      });
      return { ...out, value: withGateEcho(out.value, passed, out.position) };
    } finally {
      if (input.mode === 'nonce' && input.owner_code === null) {
        const id = input.fresh.challenge_id;
        const taken = challengeById(await desk(project.project_id), id) !== undefined;
        if (!taken) await discard();
      }
    }
  };

  return {
    log,
    dataDir: app.dataDir,
    meta,
    config,
    channel,
    now,
    mounts,
    desk,
    resolve,
    run,
    runGated,
    view,
    viewHead,
    artifactsSettled,
    /** files the artifact sink wrote or removed (the bench and tests count them) */
    artifactWrites: () => artifactSinkOf(app)?.writes() ?? 0,
    /** why a project's files could not be written, while they cannot */
    artifactFailure: (projectId: string) => artifactSinkOf(app)?.failure(projectId),
  };
};

export type MissionsCore = ReturnType<typeof missionsCore>;
export const defaultMissionsConfig = missionsConfigFromEnv;
