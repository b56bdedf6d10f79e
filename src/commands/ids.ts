import { z } from 'zod';

/** The contracts' id rule: letters, numbers, `.`, `_`, `:`, `/`, `-`, up to 128 characters. */
export const Id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:/-]+$/, 'ids use letters, numbers, ".", "_", ":", "/" or "-"');

/** The project that holds what belongs to no project (access tokens); not a legal project id. */
export const SYSTEM_PROJECT = '@system';
