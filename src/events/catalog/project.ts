import { z } from 'zod';
import { addVersion, defineEvent } from './define.js';

/** The project context: the aggregate every surface shares (DESIGN "One project, one log"). */
export const Role = z.enum([
  'PO',
  'PM',
  'PA',
  'ARCHITECT',
  'LEAD_ENGINEER',
  'IMPLEMENTER',
  'REVIEWER',
]);
export type Role = z.infer<typeof Role>;

export const PrincipalRef = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('system') }),
  z.object({ kind: z.literal('actor'), actor_id: z.string() }),
]);
export type PrincipalRef = z.infer<typeof PrincipalRef>;

// v1 (the first release) had no description; v2 adds it, null for projects created before.
export const ProjectCreated = addVersion(
  defineEvent('project.created', z.object({ project_id: z.string(), name: z.string() })),
  z.object({ project_id: z.string(), name: z.string(), description: z.string().nullable() }),
  (v1) => ({ ...v1, description: null }),
);
export const ActorRegistered = defineEvent(
  'actor.registered',
  z.object({
    project_id: z.string(),
    actor_id: z.string(),
    role: Role,
    display_name: z.string().nullable(),
    registered_by: z.string(),
  }),
);
export const RootBound = defineEvent(
  'root.bound',
  z.object({ project_id: z.string(), root_hash: z.string(), device: z.string() }),
);
export const RootUnbound = defineEvent(
  'root.unbound',
  z.object({ project_id: z.string(), root_hash: z.string(), device: z.string() }),
);
export const TokenIssued = defineEvent(
  'token.issued',
  z.object({
    token_id: z.string(),
    principal: PrincipalRef,
    token_hash: z.string(),
    label: z.string().nullable(),
  }),
);
export const TokenRevoked = defineEvent('token.revoked', z.object({ token_id: z.string() }));

export const projectEvents = [
  ProjectCreated,
  ActorRegistered,
  RootBound,
  RootUnbound,
  TokenIssued,
  TokenRevoked,
];
