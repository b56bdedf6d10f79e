import { z } from 'zod';
import type { App } from '../../app/app.js';
import { corruptionOf, corruptLedger, type Corruption } from '../../app/corrupt-app.js';
import { intentOf, type IntentCall, type IntentService } from '../../app/intent/index.js';
import { resolveRoot, type ResolvedRoot } from '../../app/intent/root.js';
import { taskNotFound } from '../../commands/intent/errors.js';
import { checkRequestId } from '../../commands/intent/input-checks.js';
import { clientRoots } from '../client-roots.js';
import { withEnvelope } from '../error-envelope.js';
import { Annotations, defineTool, type AnyTool, type ToolContext } from '../tool.js';
import { requireAllowedRoot } from './root-policy.js';
import { ProjectRoot } from './schemas.js';

/**
 * One row kind for every intent tool: the project root is resolved first (sandbox metadata,
 * `project_root`, one client root), before any state is read; the project is found from the
 * root's hash; then the tool runs as the caller's principal, and its task id rides in the
 * envelope. Only a task start that succeeded binds a new root to a project: every other call
 * on a root no project holds answers as for a task that does not exist, and appends nothing.
 */
export type Scope = {
  app: App;
  service: IntentService;
  root: ResolvedRoot;
  call: IntentCall;
  ctx: ToolContext;
};

export type IntentAnswer<R> = {
  result: R;
  task_id: string | null;
  summary: string;
  replayed?: boolean;
  position?: number;
};

type Kind = 'query' | 'mutation' | 'destructive' | 'status';

type Spec<A extends z.ZodRawShape, O extends z.ZodType> = {
  name: string;
  title: string;
  description: string;
  args: A;
  output: O;
  kind: Kind;
  /** whether a repeat with the same arguments changes nothing more */
  idempotent?: boolean;
  /** a task start: acts in the project the root will be bound to, and binds it on success */
  starts?: boolean;
  run: (args: z.output<z.ZodObject<A>>, scope: Scope) => Promise<IntentAnswer<z.input<O>>>;
  /**
   * The answer when the store is corrupt (corrupt-app.ts): a tool that can say something
   * without reading state (status) answers; every other tool is CORRUPT_LEDGER.
   */
  whenCorrupt?: (corruption: Corruption, root: ResolvedRoot) => IntentAnswer<z.input<O>>;
};

const annotations = (kind: Kind, idempotent: boolean) =>
  kind === 'query' || kind === 'status'
    ? Annotations.query
    : Annotations.mutation({ destructive: kind === 'destructive', idempotent });

const rootOf = (ctx: ToolContext, explicit: string | undefined) =>
  resolveRoot({ meta: ctx.call.meta, explicit, clientRoots: () => clientRoots(ctx.call) });

/** The call's project: looked up; for a start, the one it will bind when none holds the root. */
const projectOf = async (
  service: IntentService,
  root: ResolvedRoot,
  starts: boolean,
): Promise<{ project_id: string | null; bound: boolean }> => {
  if (starts) return service.projects.planned(root);
  const found = await service.projects.lookup(root);
  return { project_id: found ?? null, bound: found !== undefined };
};

export const intentTool = <A extends z.ZodRawShape, O extends z.ZodType>(
  spec: Spec<A, O>,
): AnyTool =>
  defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: z.strictObject({ project_root: ProjectRoot, ...spec.args }),
    output: spec.output,
    annotations: annotations(spec.kind, spec.idempotent ?? false),
    tier: 'all',
    async run(input, ctx) {
      const { project_root, ...rest } = input as { project_root?: string };
      const root = await rootOf(ctx, project_root);
      const corruption = corruptionOf(ctx.app);
      if (corruption) {
        if (!spec.whenCorrupt) throw corruptLedger(corruption);
        const { result, task_id, summary } = spec.whenCorrupt(corruption, root);
        return { result, project_id: null, envelope: { task_id }, summary };
      }
      const service = intentOf(ctx.app);
      const task = (rest as { task_id?: unknown }).task_id;
      const where = await projectOf(service, root, spec.starts ?? false);
      await requireAllowedRoot(ctx, root, where.bound);
      // a failure names the project (and, given a task_id, the task) the call had found
      const scoped = (error: unknown) =>
        withEnvelope(error, {
          project_id: where.bound ? where.project_id : null,
          ...(typeof task === 'string' ? { task_id: task } : {}),
        });
      // status only reports; any other tool needs a task, and a root no project holds has none
      if (where.project_id === null && spec.kind !== 'status') throw scoped(taskNotFound());
      const call: IntentCall = {
        project_id: where.project_id ?? '',
        principal: ctx.principal,
        request_id: (rest as { request_id?: string }).request_id,
      };
      try {
        checkRequestId(call.request_id);
      } catch (error) {
        throw scoped(error);
      }
      const answer = await spec
        .run(input as z.output<z.ZodObject<A>>, { app: ctx.app, service, root, call, ctx })
        .catch((error: unknown) => {
          throw scoped(error);
        });
      if (!where.bound && where.project_id !== null) await service.projects.ensure(root);
      const project_id = where.project_id;
      return {
        result: answer.result,
        project_id,
        envelope: { task_id: answer.task_id },
        summary: answer.summary,
        ...(answer.replayed === undefined ? {} : { replayed: answer.replayed }),
        ...(answer.position === undefined ? {} : { position: answer.position }),
      };
    },
  });
