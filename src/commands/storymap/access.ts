import { DomainError, forbidden, type ErrorCode } from '../errors.js';

/** The story map's roles, per project (contracts/storymap.md, "Access"); the creator is owner. */
export const StoryMapRoles = ['owner', 'editor', 'commenter', 'viewer'] as const;
export type StoryMapRole = (typeof StoryMapRoles)[number];

/** What a call needs: reads any role, add_note comment access, writes edit, the founder own. */
export type Capability = 'read' | 'comment' | 'edit' | 'own';

const rank: Record<StoryMapRole, number> = { viewer: 0, commenter: 1, editor: 2, owner: 3 };
const needs: Record<Capability, number> = { read: 0, comment: 1, edit: 2, own: 3 };

/** Who is calling, as the service resolved it from the project's members (a fact for deciders). */
export type Caller = { actor_id: string; role: StoryMapRole };

export const can = (caller: Caller, capability: Capability): boolean =>
  rank[caller.role] >= needs[capability];

/** Refuses a call the caller's role does not cover, naming the capability it needs. */
export const requireCapability = (caller: Caller, capability: Capability): void => {
  if (!can(caller, capability))
    throw forbidden(
      `This needs ${capability} access to the project; your role is ${caller.role}.`,
      { capability, role: caller.role },
    );
};

/**
 * The contract's own codes (`VERSION_CONFLICT`, `constitution_required`, `invalid_report`)
 * beside the kernel's; the surface answers them as they are.
 */
export type StoryMapCode =
  'VERSION_CONFLICT' | 'constitution_required' | 'invalid_report' | 'FEEDBACK_UNANSWERED';

export const storyMapError = (
  code: StoryMapCode,
  message: string,
  details: Record<string, unknown> = {},
): DomainError => new DomainError(code as unknown as ErrorCode, message, details);
