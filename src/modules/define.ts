import type { Command } from 'commander';
import type { KernelModule } from '../app/kernel-module.js';
import type { Surface } from '../mcp/tool.js';
import type { Page } from '../web/page.js';

/**
 * What an `intentlog` command of a context needs loaded before it runs: `nothing` (it loads
 * what it opens itself, e.g. `token`), the `kernel` (every context's events and read models, no
 * surfaces: `hook`), or `everything` (every context whole: its surfaces and pages).
 */
export type Needs = 'nothing' | 'kernel' | 'everything';

/** A context's `intentlog` command: its factory, loaded only when it runs or `--help` lists all. */
export type ContextCommand = { needs: Needs; load: () => Promise<() => Command> };

/**
 * A context, declared once (src/modules/<context>.ts) and registered by one line in
 * contexts.ts. Every part is loaded on demand, so the CLI reads the declarations at start-up
 * without loading any context: `hook` loads the kernel parts, `mcp` the kernel parts and the
 * surfaces, `serve` everything. docs/architecture.md walks through adding one.
 */
export type Context = {
  name: string;
  /** its events and read models (src/app/<context>/module.ts); none for a context the app opens itself */
  kernel?: () => Promise<Omit<KernelModule, 'name'>>;
  surfaces?: () => Promise<readonly Surface[]>;
  /** its pages in the web view (src/web/page.ts), in the order of its tabs */
  pages?: () => Promise<readonly Page[]>;
  /** top-level `intentlog` commands it adds (`sync`, `founder`, `hook`, …), by name */
  commands?: Readonly<Record<string, ContextCommand>>;
};

export const defineContext = (context: Context): Context => context;

/** A context's command: what it needs loaded, and its factory's module, imported when it runs. */
export const command = (needs: Needs, load: ContextCommand['load']): ContextCommand => ({
  needs,
  load,
});

/** A context loaded whole: what the app, the web view and the tests are given. */
export type Module = KernelModule & {
  surfaces?: readonly Surface[];
  /** top-level `intentlog` commands this context adds (`sync`, `founder`, `hook`, …) */
  cli?: readonly (() => Command)[];
  /** its pages in the web view (src/web/page.ts), e.g. governance's work packages */
  pages?: readonly Page[];
};

/** A module declared whole, as a test's context is (test/modules/tiny-module.ts). */
export const defineModule = (module: Module): Module => module;

/** Every module a build serves, in the order their surfaces and commands are listed. */
export type Registry = readonly Module[];

/** A context's part below the surfaces: what `hook` and every other command that opens the log loads. */
export const kernelOf = async (context: Context): Promise<KernelModule> => ({
  name: context.name,
  events: [],
  ...(await context.kernel?.()),
});

/** A context loaded whole. */
export const moduleOf = async (context: Context): Promise<Module> => {
  const commands = Object.values(context.commands ?? {});
  const [kernel, surfaces, pages, cli] = await Promise.all([
    kernelOf(context),
    context.surfaces?.(),
    context.pages?.(),
    Promise.all(commands.map((c) => c.load())),
  ]);
  return {
    ...kernel,
    ...(surfaces ? { surfaces } : {}),
    ...(pages ? { pages } : {}),
    ...(cli.length ? { cli } : {}),
  };
};
