import { streamName, type AppendMeta, type EventLog } from '../../events/index.js';
import type { RoleSurface } from '../../events/project/index.js';
import { runCommand, runMultiStreamCommand, type CommandOutcome } from '../handler.js';
import { SYSTEM_PROJECT } from '../ids.js';
import { principalId, type Principal } from '../principal.js';
import {
  claimRoot,
  evolveRootHolder,
  initialRootHolder,
  releaseRoot,
  rootStream,
  type RootEvent,
  type RootHolder,
} from './root.js';
import {
  projectDecider,
  roleOf,
  type ProjectEvent,
  type Member,
  type Project,
  type ProjectCommand,
  type RoleGrant,
} from './index.js';
import { newTokenSecret, tokenDecider, tokenHash, type TokenCommand } from './token.js';
import { newId } from '../../events/index.js';
import { own } from '../../events/own.js';

export const projectStream = (projectId: string): string =>
  streamName({ aggregateType: 'project', projectId, aggregateId: projectId });

export const tokenStream = (tokenId: string): string =>
  streamName({ aggregateType: 'token', projectId: SYSTEM_PROJECT, aggregateId: tokenId });

/** Per-call context every command carries: the caller and, optionally, its idempotency key. */
export type CallContext = {
  principal: Principal;
  idempotencyKey?: string;
  correlationId?: string | null;
};

const metaFor = (principal: Principal, role: string | undefined, ctx: CallContext): AppendMeta => ({
  actor_id: principalId(principal),
  actor_role: role ?? (principal.kind === 'system' ? 'SYSTEM' : 'NONE'),
  correlation_id: ctx.correlationId ?? null,
  causation_event_id: null,
});

/** Loads a project's current state from its own stream (authoritative, not a read model). */
export const loadProject = async (log: EventLog, projectId: string): Promise<Project> =>
  (
    await log.aggregateStream(projectStream(projectId), {
      evolve: projectDecider.evolve,
      initialState: projectDecider.initialState,
    })
  ).state;

type ProjectResult = { project_id: string; name: string; description: string | null };

/** The project context's write side, as every surface uses it. */
export const projectCommands = (log: EventLog) => {
  const run = async <R>(
    projectId: string,
    command: ProjectCommand,
    ctx: CallContext,
    operation: string,
    args: Record<string, unknown>,
    respond: (state: Project) => R,
  ): Promise<CommandOutcome<R>> => {
    return runCommand(log, {
      decider: projectDecider,
      stream: projectStream(projectId),
      command,
      meta: metaFor(ctx.principal, undefined, ctx),
      roleIn: (state) => roleOf(state, ctx.principal) ?? 'NONE',
      ...(ctx.idempotencyKey
        ? {
            idempotency: {
              key: ctx.idempotencyKey,
              projectId,
              callerId: principalId(ctx.principal),
              operation,
              args,
            },
          }
        : {}),
      respond,
    });
  };

  return {
    /** `owner`: the role the creating actor takes (SYSTEM alone creates without one) */
    create: (
      args: { project_id: string; name: string; description?: string | null },
      ctx: CallContext,
      owner?: RoleGrant,
    ) =>
      run(
        args.project_id,
        {
          type: 'CreateProject',
          data: {
            project_id: args.project_id,
            name: args.name,
            description: args.description ?? null,
            by: ctx.principal,
            ...(owner ? { owner } : {}),
          },
        },
        ctx,
        'create_project',
        args,
        (s): ProjectResult => ({
          project_id: s.project_id,
          name: s.name,
          description: s.description,
        }),
      ),
    /** Gives an actor a role on a surface (governance when none is named). */
    registerActor: (
      args: {
        project_id: string;
        actor_id: string;
        role: string;
        surface?: RoleSurface;
        display_name?: string | null;
      },
      ctx: CallContext,
    ) =>
      run(
        args.project_id,
        {
          type: 'RegisterActor',
          data: {
            actor_id: args.actor_id,
            surface: args.surface ?? 'governance',
            role: args.role,
            display_name: args.display_name ?? null,
            by: ctx.principal,
          },
        },
        ctx,
        'register_actor',
        args,
        (s): Member & { project_id: string } => ({
          project_id: s.project_id,
          ...own(s.members, args.actor_id)!,
        }),
      ),
    /**
     * Binds a root (by its hash) to the project on a device. A root belongs to one project:
     * the claim is decided on the root's own stream and appended with the project's binding in
     * one atomic append, so two projects racing for a root cannot both get it.
     */
    bindRoot: (args: { project_id: string; root_hash: string; device: string }, ctx: CallContext) =>
      onProjectAndRoot(log, args, ctx, (project, holder) => [
        decideProject({ type: 'BindRoot', data: { ...args, by: ctx.principal } }, project),
        claimRoot(holder, args),
      ]),
    unbindRoot: (args: { project_id: string; root_hash: string }, ctx: CallContext) =>
      onProjectAndRoot(log, { ...args, device: '' }, ctx, (project, holder) => [
        decideProject(
          { type: 'UnbindRoot', data: { root_hash: args.root_hash, by: ctx.principal } },
          project,
        ),
        holder.project_id === args.project_id ? releaseRoot(holder, args.root_hash) : [],
      ]),
  };
};

const decideProject = (command: ProjectCommand, state: Project): ProjectEvent[] => {
  const decided = projectDecider.decide(command, state);
  return Array.isArray(decided) ? decided : [decided];
};

// One pair of functions for the process: the command path's fold cache is keyed by them.
const projectFold = {
  evolve: (s: Project | RootHolder, e: ProjectEvent | RootEvent) =>
    projectDecider.evolve(s as Project, e as ProjectEvent),
  initialState: projectDecider.initialState,
};
const rootFold = {
  evolve: (s: Project | RootHolder, e: ProjectEvent | RootEvent) =>
    evolveRootHolder(s as RootHolder, e as RootEvent),
  initialState: initialRootHolder,
};

type RootBinding = { project_id: string; root_hash: string; device: string };

/** A command on a project's stream and a root's stream together (the two states, typed). */
const onProjectAndRoot = (
  log: EventLog,
  args: RootBinding,
  ctx: CallContext,
  decide: (project: Project, holder: RootHolder) => [ProjectEvent[], RootEvent[]],
) =>
  runMultiStreamCommand<Project | RootHolder, ProjectEvent | RootEvent, RootBinding>(log, {
    streams: [
      { name: projectStream(args.project_id), ...projectFold },
      { name: rootStream(args.root_hash), ...rootFold },
    ],
    decide: ([project, root]) => decide(project!.state as Project, root!.state as RootHolder),
    meta: metaFor(ctx.principal, undefined, ctx),
    respond: ([project]) => ({
      project_id: args.project_id,
      root_hash: args.root_hash,
      device: own((project as Project).roots, args.root_hash) ?? '',
    }),
  });

/** Issues and revokes access tokens; the secret is returned once and never stored. */
export const tokenCommands = (log: EventLog) => {
  const run = (tokenId: string, command: TokenCommand, by: Principal) =>
    runCommand(log, {
      decider: tokenDecider,
      stream: tokenStream(tokenId),
      command,
      meta: metaFor(by, undefined, { principal: by }),
      respond: (state) => state,
    });
  return {
    async issue(principal: Principal, label: string | null, by: Principal) {
      const token = newTokenSecret();
      const token_id = newId('tok');
      const token_hash = tokenHash(token);
      const data = { token_id, principal, token_hash, label, expires_at: null, grant_id: null, by };
      const outcome = await run(token_id, { type: 'IssueToken', data }, by);
      return { token, token_id, position: outcome.position };
    },
    revoke: async (token_id: string, by: Principal) =>
      (await run(token_id, { type: 'RevokeToken', data: { token_id, by } }, by)).position,
  };
};
