import type { Command } from 'commander';
import { kernelModules } from '../modules/kernel.js';
import { servedSurfaces } from '../modules/surfaces.js';
import { mcpCommand } from './commands/mcp.js';
import { program } from './program.js';
import { useRegistry } from './registry.js';

/**
 * `intentlog mcp` (but its `--help`) past the early answer: every context's kernel and
 * surfaces, and the command. The build bundles this file whole into dist/cli/mcp-main.js
 * (scripts/bundle.mjs): hosts start `mcp` on every session, and the ES module loader spends
 * about 1 ms on each file, where the registry's lazy parts split would be forty chunks.
 */
export const mcpProgram = (version: string): Command => {
  useRegistry({ modules: kernelModules, surfaces: servedSurfaces });
  return program([mcpCommand], version);
};
