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

/**
 * The registry set, or else the kernel's (every context's events and read models, no
 * surfaces): for a command main.ts starts without one, which opens the app only on some paths
 * (`token`).
 */
export const kernelRegistry = async (): Promise<CliRegistry> => {
  if (current) return current;
  const { kernelModules } = await import('../modules/kernel.js');
  current ??= { modules: kernelModules, surfaces: [] };
  return current;
};

export const registry = (): CliRegistry => {
  if (!current) throw new Error('the CLI registry is not set (src/cli/main.ts sets it)');
  return current;
};
