import type { z } from 'zod';

/**
 * The JSON Schema keyword (a zod `meta` key) that keeps a property out of `tools/list`:
 * compact-schema.ts drops every property carrying it, and its name from `required`.
 */
export const UNADVERTISED = 'x-unadvertised';

/**
 * An argument a tool accepts and does not list (issue 42): another spelling of one it lists
 * (`note` names that one), or a field a peer's client sends that this surface `ignored` or
 * `refused` by name. Validation is the tool's own schema, unchanged, so a peer's call answers as
 * before; a model reads one name per argument. The surface's doc lists every such spelling.
 */
export const unadvertised = <T extends z.ZodType>(schema: T, note: string): T =>
  schema.meta({ [UNADVERTISED]: note }) as T;
