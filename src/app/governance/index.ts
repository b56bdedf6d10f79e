import { invalidArgument, notFound } from '../../commands/errors.js';
import { resolveCaller } from '../../commands/governance/access.js';
import { governanceCommands } from '../../commands/governance/commands.js';
import type { GovernanceCall } from '../../commands/governance/run.js';
import type { Principal } from '../../commands/principal.js';
import { projectCommands } from '../../commands/project/commands.js';
import type { Role } from '../../events/project/index.js';
import { toSyncEnvelope, type EventLog } from '../../events/index.js';
import type { WaitOptions } from '../../projections/engine-types.js';
import type { App } from '../app.js';
import { ownedStreams } from '../owned-streams.js';
import { perApp } from '../per-app.js';
import { pendingActionQueries } from '../../projections/governance/pending-actions.js';
import { projectQueries } from '../../projections/project/queries.js';
import {
  readWorkPackage,
  workPackageOfReview,
} from '../../projections/governance/work-package-reads.js';

/** The most events one `sync_since` page returns (contracts/governance.md). */
export const SYNC_PAGE_MAX = 500;

type InProject = { project_id: string };

/**
 * The governance surface's services: its commands, and its queries behind the same membership
 * rule. Every query first waits until the read models have folded everything committed before
 * it started, so a caller always reads its own (and everyone's earlier) writes.
 */
/** The read models governance's queries read. */
export const GOVERNANCE_MODELS = ['projects', 'work-packages', 'pending-actions'];

export const governanceService = (
  log: EventLog,
  waitFor: (position: number, models?: WaitOptions['models']) => Promise<void>,
) => {
  const pending = pendingActionQueries(log.models);
  const projects = projectQueries(log.models);
  const fresh = async () => waitFor(await log.head(), GOVERNANCE_MODELS);
  const member = async (projectId: string, principal: Principal) =>
    (await resolveCaller(log, projectId, principal)).caller;
  const project = projectCommands(log);
  const owned = ownedStreams(log);
  const ctx = (call: GovernanceCall) => ({
    principal: call.principal,
    idempotencyKey: call.idempotencyKey,
  });

  return {
    ...governanceCommands(log, {
      // a review id is found by the read model; one requested a moment ago may still be folding
      workPackageOfReview: async (projectId, reviewId) =>
        (await workPackageOfReview(log.models, projectId, reviewId)) ??
        (await fresh(), await workPackageOfReview(log.models, projectId, reviewId)),
    }),
    createProject: (
      args: InProject & { name: string; description?: string },
      call: GovernanceCall,
    ) => project.create(args, ctx(call)),
    async registerActor(
      args: InProject & { actor_id: string; role: Role; display_name?: string },
      call: GovernanceCall,
    ) {
      const outcome = await project.registerActor({ ...args, surface: 'governance' }, ctx(call));
      const { project_id, actor_id, display_name, roles } = outcome.result;
      const member = { project_id, actor_id, role: roles.governance!, display_name };
      return { ...outcome, result: member };
    },

    async getProject(args: InProject, principal: Principal) {
      await member(args.project_id, principal);
      await fresh();
      const view = await projects.project(args.project_id);
      if (!view) throw notFound('project not found', { project_id: args.project_id });
      // governance's roster: the members with a governance role, as governance.md names them
      const roster = view.roster.flatMap(({ roles, ...m }) =>
        roles.governance ? [{ ...m, role: roles.governance as Role }] : [],
      );
      return { ...view, roster };
    },
    async getWorkPackage(args: InProject & { work_package_id: string }, principal: Principal) {
      await member(args.project_id, principal);
      await fresh();
      const view = await readWorkPackage(log.models, args.project_id, args.work_package_id);
      if (!view)
        throw notFound('work package not found', { work_package_id: args.work_package_id });
      return view;
    },
    async listPendingActions(args: InProject, principal: Principal) {
      const caller = await member(args.project_id, principal);
      await fresh();
      const actions = await pending.pendingActions(args.project_id, caller.actor_id, caller.role);
      return { actor_id: caller.actor_id, role: caller.role, actions };
    },
    /**
     * A project's events after `cursor`, in cursor order; read from the log itself. A page
     * leaves out what another principal owns (an intent task: docs/authorization.md), so it may
     * hold fewer events than `limit`; `next_cursor` still moves past what it left out.
     */
    async syncSince(args: InProject & { cursor: number; limit?: number }, principal: Principal) {
      const limit = args.limit ?? SYNC_PAGE_MAX;
      if (!Number.isSafeInteger(args.cursor) || args.cursor < 0)
        throw invalidArgument('cursor must be a non-negative integer', { cursor: args.cursor });
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > SYNC_PAGE_MAX)
        throw invalidArgument(`limit must be 1 to ${SYNC_PAGE_MAX}`, { limit });
      await member(args.project_id, principal);
      // one more than asked says whether there is more without a second read
      const read = await log.readProject(args.project_id, { after: args.cursor, limit: limit + 1 });
      const page = read.slice(0, limit);
      const events = (await owned.visible(principal, page)).map(toSyncEnvelope);
      const next_cursor = page.at(-1)?.cursor ?? args.cursor;
      return { events, next_cursor, has_more: read.length > limit };
    },
  };
};

export type GovernanceService = ReturnType<typeof governanceService>;

/** The governance context's services of an app. */
export const governance = perApp((app: App) => governanceService(app.log, app.waitFor));
