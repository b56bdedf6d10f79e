import { PrincipalRef } from '../events/project/index.js';

/**
 * Who is calling. Over HTTP a bearer token resolves to one; over stdio it is the local user
 * (the system principal) or the actor named with --actor. Tokens store it, so its schema lives
 * in the event catalog.
 */
export const Principal = PrincipalRef;
export type Principal = PrincipalRef;

export const SYSTEM: Principal = { kind: 'system' };

export const principalId = (p: Principal): string => (p.kind === 'system' ? 'system' : p.actor_id);
