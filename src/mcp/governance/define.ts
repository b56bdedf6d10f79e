import { z } from 'zod';
import type { App } from '../../app/app.js';
import type { CommandOutcome } from '../../commands/handler.js';
import type { GovernanceCall } from '../../commands/governance/run.js';
import type { Principal } from '../../commands/principal.js';
import { Annotations, defineTool, type AnyTool } from '../tool.js';
import * as S from './schemas.js';

/**
 * The two kinds of row in a project-scoped surface's table. A mutation runs one command and
 * answers with its result, the log position it reached and whether its idempotency key replayed
 * it; a query runs one read. Both take `project_id` first; a mutation takes `idempotency_key`.
 */

type Shape = z.ZodRawShape;
type Args<A extends Shape> = z.output<z.ZodObject<A>> & {
  project_id: string;
  idempotency_key: string;
};

type MutationSpec<A extends Shape, R> = {
  name: string;
  title: string;
  description: string;
  args: A;
  output: z.ZodType;
  /** true where the change overwrites or ends something (a role, a package's fate) */
  destructive?: boolean;
  run: (app: App, args: Args<A>, call: GovernanceCall) => Promise<CommandOutcome<R>>;
  summary: (result: R) => string;
};

/** A change: `project_id` and `idempotency_key` come first and last; a repeat is a replay. */
export const mutation = <A extends Shape, R>(spec: MutationSpec<A, R>): AnyTool =>
  defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: z.strictObject({
      project_id: S.ProjectId,
      ...spec.args,
      idempotency_key: S.IdempotencyKey,
    }),
    output: spec.output,
    annotations: Annotations.mutation({ destructive: spec.destructive ?? false, idempotent: true }),
    tier: 'all',
    async run(input, { app, principal }) {
      const args = input as Args<A>;
      const call = { principal, idempotencyKey: args.idempotency_key };
      const outcome = await spec.run(app, args, call);
      return {
        result: outcome.result,
        project_id: args.project_id,
        replayed: outcome.replayed,
        position: outcome.position,
        summary: spec.summary(outcome.result),
      };
    },
  });

type QuerySpec<A extends Shape, R> = Omit<MutationSpec<A, R>, 'run' | 'destructive'> & {
  run: (
    app: App,
    args: z.output<z.ZodObject<A>> & { project_id: string },
    who: Principal,
  ) => Promise<R>;
};

/** A read: answers from the read models once they hold everything committed before it. */
export const query = <A extends Shape, R>(spec: QuerySpec<A, R>): AnyTool =>
  defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: z.strictObject({ project_id: S.ProjectId, ...spec.args }),
    output: spec.output,
    annotations: Annotations.query,
    tier: 'all',
    async run(input, { app, principal }) {
      const args = input as z.output<z.ZodObject<A>> & { project_id: string };
      const result = await spec.run(app, args, principal);
      return { result, project_id: args.project_id, summary: spec.summary(result) };
    },
  });
