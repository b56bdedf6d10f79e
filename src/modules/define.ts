import type { Command } from 'commander';
import type { KernelModule } from '../app/kernel-module.js';
import type { Surface } from '../mcp/tool.js';
import type { Page } from '../web/page.js';

/**
 * A context, declared once: its event types, read models, MCP surfaces and CLI commands.
 * Registering it is one line in `index.ts`; the app builds the catalog and the projection
 * engine from every module, `serve` and `mcp` serve their surfaces, the CLI adds their
 * commands. docs/architecture.md walks through adding one.
 */
export type Module = KernelModule & {
  surfaces?: readonly Surface[];
  /** top-level `intentlog` commands this context adds (`sync`, `founder`, `hook`, …) */
  cli?: readonly (() => Command)[];
  /** its pages in the web view (src/web/page.ts), e.g. governance's work packages */
  pages?: readonly Page[];
};

export const defineModule = (module: Module): Module => module;

/** Every module a build serves, in the order their surfaces and commands are listed. */
export type Registry = readonly Module[];
