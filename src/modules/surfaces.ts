import type { Surface } from '../mcp/tool.js';
import { contexts } from './contexts.js';

/*
 * Every context's MCP surfaces without the rest of its module (web pages, CLI commands, the
 * HTTP stack they pull in): what `intentlog mcp` loads, since hosts start it on every session.
 */
export const servedSurfaces: readonly Surface[] = (
  await Promise.all(contexts.map(async (c) => (await c.surfaces?.()) ?? []))
).flat();
