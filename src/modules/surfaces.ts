import type { Surface } from '../mcp/tool.js';
import { governanceSurface } from '../mcp/governance/index.js';
import { intentSurface } from '../mcp/intent/index.js';
import { missionsSurface } from '../mcp/missions/index.js';
import { storyMapSurface } from '../mcp/storymap/index.js';
import { storyMapLocalSurface } from '../mcp/storymap/local.js';
import { systemSurface } from '../mcp/surfaces/system.js';

/*
 * Every context's MCP surfaces without the rest of its module (web pages, CLI commands, the
 * HTTP stack they pull in): what `intentlog mcp` loads, since hosts start it on every session.
 * In the order `surfacesOf(modules)` gives (index.ts); test/modules/kernel.test.ts holds them
 * equal.
 */
export const servedSurfaces: readonly Surface[] = [
  systemSurface,
  governanceSurface,
  storyMapSurface,
  storyMapLocalSurface,
  intentSurface,
  missionsSurface,
];
