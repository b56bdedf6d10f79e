import { z } from 'zod';
import type { App } from '../../app/app.js';
import type { Principal } from '../../commands/principal.js';
import { Annotations, defineTool, type AnyTool, type ToolContext } from '../tool.js';

/**
 * The story map's two kinds of row. Every tool but list_projects and create_project takes
 * `project_id` (a UUID) first. A write answers with the log position it reached; a read waits
 * for the read models first (inside the service), so a caller reads its own writes.
 */
type Shape = z.ZodRawShape;
export type Call = { app: App; principal: Principal; ctx: ToolContext };
type Answer = {
  result: unknown;
  summary: string;
  position?: number;
  /** the text block's body in place of the envelope's JSON (ToolSuccess.text) */
  text?: string;
};

type Spec<A extends Shape> = {
  name: string;
  title: string;
  description: string;
  args: A;
  output: z.ZodType;
  /** no project_id (list_projects, create_project) */
  global?: boolean;
  run: (args: z.output<z.ZodObject<A>> & { project_id: string }, call: Call) => Promise<Answer>;
};

export const ProjectId = z
  .string()
  .min(1)
  .max(128)
  .describe('the project UUID (list_projects, create_project)');
export const StoryRef = z
  .string()
  .min(1)
  .max(200)
  .describe('a key like PB-42, a full UUID, or a UUID prefix');

const tool = <A extends Shape>(
  spec: Spec<A>,
  annotations: ReturnType<typeof Annotations.mutation>,
) =>
  defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: z.strictObject(spec.global ? spec.args : { project_id: ProjectId, ...spec.args }),
    output: spec.output,
    annotations,
    tier: 'all',
    async run(input, ctx) {
      const args = input as z.output<z.ZodObject<A>> & { project_id: string };
      const answer = await spec.run(args, { app: ctx.app, principal: ctx.principal, ctx });
      const project_id =
        args.project_id ?? (answer.result as { project_id?: string }).project_id ?? null;
      return {
        result: answer.result,
        project_id,
        summary: answer.summary,
        ...(answer.position !== undefined ? { position: answer.position } : {}),
        ...(answer.text !== undefined ? { text: answer.text } : {}),
      };
    },
  });

/** A read: changes nothing, so repeating it is harmless. */
export const read = <A extends Shape>(spec: Spec<A>): AnyTool => tool(spec, Annotations.query);

/** A write; `overwrites` marks the contract's "Overwrites" kind (destructive for hosts). */
export const write = <A extends Shape>(spec: Spec<A> & { overwrites?: boolean }): AnyTool =>
  tool(spec, Annotations.mutation({ destructive: spec.overwrites ?? false, idempotent: false }));

/** A loose result schema naming the fields the contract promises. */
export const result = (fields: Shape) => z.looseObject(fields);

export const CriterionInputSchema = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .describe(
    'a string, or { text (required), priority: must|should|could, given, when, then, verification: { method: executable|agent_self_check|visual_render|founder_confirm, command, check_prompt, expected } }',
  );
