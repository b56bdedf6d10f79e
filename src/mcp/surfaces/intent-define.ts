import { z } from 'zod';
import type { App } from '../../app/app.js';
import { intentOf, type IntentCall, type IntentService } from '../../app/intent.js';
import { resolveRoot, type ResolvedRoot } from '../../app/intent-root.js';
import { principalId } from '../../commands/principal.js';
import { withEnvelope } from '../error-envelope.js';
import { Annotations, defineTool, type AnyTool, type ToolContext } from '../tool.js';
import { ProjectRoot } from './intent-schemas.js';

/**
 * One row kind for every intent tool: the project root is resolved first (sandbox metadata,
 * `project_root`, one client root), before any state is read; the project is found (or, for a
 * writing tool, bound) from the root's hash; then the tool runs, and its task id rides in the
 * envelope.
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
  run: (args: z.output<z.ZodObject<A>>, scope: Scope) => Promise<IntentAnswer<z.input<O>>>;
};

const annotations = (kind: Kind, idempotent: boolean) =>
  kind === 'query' || kind === 'status'
    ? Annotations.query
    : Annotations.mutation({ destructive: kind === 'destructive', idempotent });

const rootOf = (ctx: ToolContext, explicit: string | undefined) =>
  resolveRoot({
    meta: ctx.call.meta,
    explicit,
    clientRoots: () => ctx.call.listRoots().catch(() => undefined),
  });

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
      const service = intentOf(ctx.app);
      // status creates no storage: it only looks the project up
      const project_id =
        spec.kind === 'status'
          ? ((await service.projects.lookup(root)) ?? null)
          : await service.projects.ensure(root);
      const request_id = (rest as { request_id?: string }).request_id;
      const call: IntentCall = {
        project_id: project_id ?? '',
        caller_id: principalId(ctx.principal),
        request_id,
      };
      const task = (rest as { task_id?: unknown }).task_id;
      // a failure from here on happened in a known project (and, given a task_id, task)
      const answer = await spec
        .run(input as z.output<z.ZodObject<A>>, { app: ctx.app, service, root, call, ctx })
        .catch((error: unknown) => {
          throw withEnvelope(error, {
            project_id,
            ...(typeof task === 'string' ? { task_id: task } : {}),
          });
        });
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
