import type { Role } from '../../events/project/index.js';
import { forbidden } from '../errors.js';

/** Who is acting: an actor and the one role its active membership gives it (or SYSTEM). */
export type Caller = { actor_id: string; role: Role | 'SYSTEM' };

type AnyRole = Caller['role'];

/** The contract's role column (contracts/governance.md), one set per rule. */
export const Roles = {
  issue: ['PO', 'PM'],
  claim: ['ARCHITECT', 'LEAD_ENGINEER', 'IMPLEMENTER'],
  requestReview: ['PO', 'PM', 'PA', 'ARCHITECT', 'LEAD_ENGINEER', 'IMPLEMENTER'],
  closeGate: ['PO', 'PM'],
  productDecision: ['PO'],
  otherDecision: ['PO', 'PM'],
  resolveEscalation: ['PO', 'PM'],
  baseline: ['PO', 'PM'],
  member: ['PO', 'PM', 'PA', 'ARCHITECT', 'LEAD_ENGINEER', 'IMPLEMENTER', 'REVIEWER'],
} as const satisfies Record<string, readonly AnyRole[]>;

/** Throws `forbidden` unless the caller's role is one of `allowed`. */
export const requireRole = (caller: Caller, allowed: readonly AnyRole[], action: string): void => {
  if (!allowed.includes(caller.role))
    throw forbidden(`${caller.role} may not ${action}`, {
      role: caller.role,
      allowed_roles: [...allowed],
    });
};
