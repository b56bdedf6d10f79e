import { z } from 'zod';
import { Id } from '../../commands/ids.js';
import type { Caller } from '../../app/missions/index.js';
import { missions, type MissionsService } from '../../app/missions/service.js';
import { sessionRoots } from '../client-roots.js';
import { ProjectIdRef } from './schemas.js';
import { Annotations, defineTool, type AnyTool, type ToolAnnotations } from '../tool.js';

/**
 * One row of the missions surface: strict input, an output schema, a run against the missions
 * service. Every answer names the project it resolved (`project_id` in the envelope).
 */

/** Required text: blank (only whitespace) is refused, as HAI-MCP strips every text argument. */
export const text = (max: number, what: string) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => s.trim() !== '', 'must not be blank')
    .describe(what);
export const optionalText = (max: number, what: string) =>
  z.string().max(max).optional().describe(what);

/** How a call names its project; one of the two is required where a project is needed. */
export const projectRef = {
  project_path: z.string().min(1).max(4096).optional().describe('absolute project directory'),
  project_id: ProjectIdRef.optional().describe('or a project bound with hai_bind_project'),
  device_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('mount table device (default: this host)'),
};

/**
 * An acknowledgement: only the literal `true` counts. HAI-MCP's clients may send 1, "true" or
 * 0; those are no acknowledgement (the gate answers owner_gate_required), not a malformed call.
 */
export const ackFlag = (what: string) =>
  z
    .union([z.boolean(), z.number(), z.string()])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === true))
    .describe(what);

export const gateArgs = {
  owner_code: z
    .string()
    .max(64)
    .optional()
    .describe('the owner’s one-time code; omit on the first call'),
  owner_ack: ackFlag('ack_legacy gate: true when the owner acknowledged'),
  reason: optionalText(2000, 'why (recorded; ack_legacy needs it)'),
};

/**
 * An id this surface made (mission, session, intake, checkpoint): never a path. HAI-MCP refuses
 * a malformed one (`../../escape`) as invalid_args before looking it up.
 */
const madeId = (what: string) =>
  Id.refine((id) => !id.includes('/') && !id.includes('..'), {
    message: 'a malformed id (ids this server makes have no "/" or "..")',
  }).describe(what);
export const MissionId = madeId('from hai_open_mission');
export const SessionId = madeId('from hai_authorize_session');
export const IntakeId = madeId('from hai_intake');
export const CheckpointId = madeId('from hai_checkpoint');
export const ContractVersion = z.number().int().positive().describe('the version you act on');

type Outcome<R> = {
  project: { project_id: string } | null;
  value: R;
  position?: number | undefined;
  replayed?: boolean;
};

export type Kind = 'query' | 'change' | 'overwrite';
const annotations: Record<Kind, ToolAnnotations> = {
  query: Annotations.query,
  change: Annotations.mutation({ destructive: false, idempotent: false }),
  overwrite: Annotations.mutation({ destructive: true, idempotent: false }),
};

export const missionTool = <A extends z.ZodRawShape, O extends z.ZodType>(spec: {
  name: string;
  title: string;
  description: string;
  args: A;
  output: O;
  kind: Kind;
  tier?: 'core' | 'all';
  run: (
    service: MissionsService,
    args: z.output<z.ZodObject<A>>,
    who: Caller,
  ) => Promise<Outcome<z.input<O>>>;
  summary: (result: z.input<O>) => string;
}): AnyTool =>
  defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: z.strictObject(spec.args),
    output: spec.output,
    annotations: annotations[spec.kind],
    tier: spec.tier ?? 'all',
    async run(args, ctx) {
      const who = { principal: ctx.principal, clientRoots: sessionRoots(ctx) };
      const out = await spec.run(missions(ctx.app), args as z.output<z.ZodObject<A>>, who);
      return {
        result: out.value,
        project_id: out.project?.project_id ?? null,
        summary: spec.summary(out.value),
        ...(out.position ? { position: out.position } : {}),
        ...(out.replayed !== undefined ? { replayed: out.replayed } : {}),
      };
    },
  });
