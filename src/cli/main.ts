#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { contexts } from '../modules/contexts.js';
import type { ContextCommand } from '../modules/define.js';

/**
 * The `intentlog` binary. Hosts start it on every session and every prompt (`mcp`, `hook`), so
 * it loads only what the command given uses: `--version` nothing, a kernel command its own file
 * and the module registry (every context's events, for the catalog), `hook` its file and the
 * registry's kernel part (events and read models, no surfaces); only `--help` and the contexts'
 * own commands load everything.
 */
const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

type Loader = () => Promise<() => Command>;

/** Commands that serve MCP (and `serve` the web view): every context's surfaces and pages. */
const KERNEL: Record<string, Loader> = {
  mcp: async () => (await import('./commands/mcp.js')).mcpCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
};

/**
 * Hosts start `mcp` on every session: it loads the surfaces (modules/surfaces.ts) and the kernel,
 * not the web pages, the HTTP stack or the contexts' other commands. Its `--help` lists every
 * surface, so it takes the full path.
 */
const WITH_SURFACES: Record<string, Loader> = { mcp: KERNEL.mcp! };

/**
 * Kernel commands that open the log but serve nothing: the registry below the surfaces
 * (modules/kernel.ts: every context's events and read models, no MCP, no pages).
 */
const WITH_KERNEL: Record<string, Loader> = {
  log: async () => (await import('./commands/log.js')).logCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  projections: async () => (await import('./commands/projections.js')).projectionsCommand,
  audit: async () => (await import('./commands/audit.js')).auditCommand,
  migrate: async () => (await import('./commands/migrate.js')).migrateCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
};

/**
 * The contexts' own commands, by name, from their declarations (src/modules/contexts.ts): each
 * says what it needs loaded. Intent's `hook` runs on every prompt, so it loads only its file and
 * the kernel parts; the project's `token create`, which scripts wait for, loads the registry
 * itself where it opens the app (options.ts, `kernelRegistry`).
 */
const CONTEXT_COMMANDS: Record<string, ContextCommand> = Object.fromEntries(
  contexts.flatMap((c) => Object.entries(c.commands ?? {})),
);

// `intentlog log | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = async (commands: readonly (() => Command)[]): Promise<Command> => {
  const { Command } = await import('commander');
  const root = new Command('intentlog')
    .description('a local-first, event-sourced ledger of intent and work for coding agents')
    .version(version);
  for (const command of commands) root.addCommand(command());
  return root;
};

const useModules = async () => {
  const [{ modules, pagesOf, surfacesOf }, { useRegistry }] = await Promise.all([
    import('../modules/index.js'),
    import('./registry.js'),
  ]);
  useRegistry({ modules, surfaces: surfacesOf(modules), pages: pagesOf(modules) });
  return modules;
};

const run = async (name: string | undefined): Promise<Command> => {
  const own =
    name !== undefined && Object.hasOwn(CONTEXT_COMMANDS, name)
      ? CONTEXT_COMMANDS[name]
      : undefined;
  if (own?.needs === 'nothing') return program([await own.load()]);
  const kernelOnly = own
    ? own.load
    : name !== undefined && Object.hasOwn(WITH_KERNEL, name)
      ? WITH_KERNEL[name]
      : undefined;
  if (kernelOnly && own?.needs !== 'everything') {
    const [{ kernelModules }, { useRegistry }, command] = await Promise.all([
      import('../modules/kernel.js'),
      import('./registry.js'),
      kernelOnly(),
    ]);
    useRegistry({ modules: kernelModules, surfaces: [] });
    return program([command]);
  }
  const help = process.argv.includes('--help') || process.argv.includes('-h');
  if (name !== undefined && !help && Object.hasOwn(WITH_SURFACES, name)) {
    const [{ kernelModules }, { servedSurfaces }, { useRegistry }, command] = await Promise.all([
      import('../modules/kernel.js'),
      import('../modules/surfaces.js'),
      import('./registry.js'),
      WITH_SURFACES[name]!(),
    ]);
    useRegistry({ modules: kernelModules, surfaces: servedSurfaces });
    return program([command]);
  }
  const kernel = name !== undefined && Object.hasOwn(KERNEL, name);
  const [modules, commands] = await Promise.all([
    useModules(),
    Promise.all(
      Object.values(kernel ? { [name]: KERNEL[name]! } : { ...KERNEL, ...WITH_KERNEL }).map(
        (load) => load(),
      ),
    ),
  ]);
  // every context's own commands, each once
  const theirs = kernel ? [] : modules.flatMap((m) => m.cli ?? []);
  const root = await program(commands);
  for (const make of theirs) {
    const command = make();
    if (!root.commands.some((c) => c.name() === command.name())) root.addCommand(command);
  }
  return root;
};

// a Hook runs on every prompt: a well-formed `hook` line skips commander and the registry
const hooked = async (): Promise<boolean> =>
  (await import('./hook-run.js')).hookMain(process.argv.slice(3));

const [first] = process.argv.slice(2);
// a host waits for `mcp` to answer `initialize`: that needs none of what the server loads
const early = first === 'mcp' ? await import('./mcp-early.js') : undefined;
await early?.answerMcpEarly(process.argv.slice(3));
if (first === '--version' || first === '-V') process.stdout.write(`${version}\n`);
else if (first !== 'hook' || !(await hooked())) await (await run(first)).parseAsync(process.argv);
// `mcp` that ended without serving (it took stdin over otherwise) must not wait on stdin
early?.releaseEarlyStdio();
