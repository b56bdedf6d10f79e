import { z } from 'zod';

/**
 * Names no id may take, because they would be ambiguous: `system` is how the system principal is
 * written in `actor_id` (an actor of that name would be indistinguishable from it, in any case),
 * the JavaScript prototype names would reach an object's prototype wherever an id becomes a
 * key, and `.`/`..` read as paths.
 */
const RESERVED = new Set(['system', '__proto__', 'constructor', 'prototype', '.', '..']);

const ID_CHARS = /^[A-Za-z0-9._:/-]+$/;
const CHARS_MESSAGE =
  'ids use letters, numbers, ".", "_", ":", "/" or "-" (no spaces or control characters)';

const isReserved = (value: string): boolean => RESERVED.has(value.toLowerCase());

/**
 * The one id rule, for every id everywhere (the contracts' rule, and no reserved name):
 * letters, numbers, `.`, `_`, `:`, `/`, `-`, 1 to 128 characters. The length and pattern stay
 * plain zod checks so that a tool's JSON Schema shows them to clients.
 */
export const Id = z
  .string()
  .min(1, 'an id cannot be empty')
  .max(128, 'an id has at most 128 characters')
  .regex(ID_CHARS, CHARS_MESSAGE)
  .refine((value) => !isReserved(value), { message: 'this id is a reserved name' });

/** Why `value` is not an id, or undefined when it is one. */
export const idProblem = (value: string): string | undefined => {
  const parsed = Id.safeParse(value);
  return parsed.success
    ? undefined
    : `${JSON.stringify(value)}: ${parsed.error.issues[0]!.message}`;
};

/** Whether `value` passes the id rule. */
export const isId = (value: unknown): value is string =>
  typeof value === 'string' && idProblem(value) === undefined;

/** The project that holds what belongs to no project (access tokens); not a legal project id. */
export const SYSTEM_PROJECT = '@system';
