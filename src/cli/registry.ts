import type { KernelModule } from '../app/kernel-module.js';
import type { Surface } from '../mcp/tool.js';
import type { Page } from '../web/page.js';

/** What the CLI serves: the contexts it opens the app with, and their MCP surfaces. */
export type CliRegistry = {
  modules: readonly KernelModule[];
  surfaces: readonly Surface[];
  /** the web view's pages (`serve` mounts them at /) */
  pages?: readonly Page[];
};

let current: CliRegistry | undefined;

/** Set once by the entry point (main.ts) from src/modules, before any command is built. */
export const useRegistry = (registry: CliRegistry): void => {
  current = registry;
};

export const registry = (): CliRegistry => {
  if (!current) throw new Error('the CLI registry is not set (src/cli/main.ts sets it)');
  return current;
};
