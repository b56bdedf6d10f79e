import { z } from 'zod';
import { addVersion, defineEvent } from '../catalog/define.js';

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

/**
 * The roles a member may hold in a project, per surface: one project, one roster, and each
 * contract's own role model (governance's PO…REVIEWER, the story map's owner…viewer, the
 * missions owner and member). A member holds at most one role per surface.
 */
export const SurfaceRoles = {
  governance: Role,
  storymap: z.enum(['owner', 'editor', 'commenter', 'viewer']),
  // `member` (actor.registered v3): works on the project's missions, passes no owner gate
  missions: z.enum(['owner', 'member']),
} as const;
export type RoleSurface = keyof typeof SurfaceRoles;
export const RoleSurface = z.enum(Object.keys(SurfaceRoles) as [RoleSurface, ...RoleSurface[]]);
export type SurfaceRole<S extends RoleSurface> = z.infer<(typeof SurfaceRoles)[S]>;

/** Whether `role` is one of `surface`'s roles. */
export const isRoleOf = (surface: RoleSurface, role: string): boolean =>
  SurfaceRoles[surface].safeParse(role).success;

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
/** actor.registered v2+ for one surface: its role is one of that surface's roles. */
function roleGrant<S extends RoleSurface, R extends z.ZodType>(surface: S, role: R) {
  return z.object({
    project_id: z.string(),
    actor_id: z.string(),
    surface: z.literal(surface),
    role,
    display_name: z.string().nullable(),
    registered_by: z.string(),
  });
}
const grantsOf = <M extends z.ZodType>(missions: M) =>
  z.discriminatedUnion('surface', [
    roleGrant('governance', SurfaceRoles.governance),
    roleGrant('storymap', SurfaceRoles.storymap),
    roleGrant('missions', missions),
  ]);

// v1 (governance was the only surface) had no `surface`: its roles were governance roles.
// v3 adds the missions `member` role; a v2 grant is a v3 grant as it stands.
export const ActorRegistered = addVersion(
  addVersion(
    defineEvent(
      'actor.registered',
      z.object({
        project_id: z.string(),
        actor_id: z.string(),
        role: Role,
        display_name: z.string().nullable(),
        registered_by: z.string(),
      }),
    ),
    grantsOf(z.enum(['owner'])),
    (v1) => ({ ...v1, surface: 'governance' as const }),
  ),
  grantsOf(SurfaceRoles.missions),
  (v2) => v2,
);
export const RootBound = defineEvent(
  'root.bound',
  z.object({ project_id: z.string(), root_hash: z.string(), device: z.string() }),
);
export const RootUnbound = defineEvent(
  'root.unbound',
  z.object({ project_id: z.string(), root_hash: z.string(), device: z.string() }),
);
/**
 * A root's holder, on the root's own stream: a root belongs to one project (and device), so the
 * claim is decided there, appended atomically with the project's `root.bound`.
 */
export const RootClaimed = defineEvent(
  'root.claimed',
  z.object({ root_hash: z.string(), project_id: z.string(), device: z.string() }),
);
export const RootReleased = defineEvent(
  'root.released',
  z.object({ root_hash: z.string(), project_id: z.string() }),
);
const TokenIssuedV1 = z.object({
  token_id: z.string(),
  principal: PrincipalRef,
  token_hash: z.string(),
  label: z.string().nullable(),
});
// v2 adds an expiry and the OAuth grant a token was issued under (null for static tokens, and
// for every token issued before).
export const TokenIssued = addVersion(
  defineEvent('token.issued', TokenIssuedV1),
  TokenIssuedV1.extend({ expires_at: z.string().nullable(), grant_id: z.string().nullable() }),
  (v1) => ({ ...v1, expires_at: null, grant_id: null }),
);
export const TokenRevoked = defineEvent('token.revoked', z.object({ token_id: z.string() }));

export const projectEvents = [
  ProjectCreated,
  ActorRegistered,
  RootBound,
  RootUnbound,
  RootClaimed,
  RootReleased,
  TokenIssued,
  TokenRevoked,
];
