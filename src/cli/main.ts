#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ContextCommand } from '../modules/define.js';
import { sizeHeap } from './heap.js';

// before anything is loaded: `serve`, `mcp` and a rebuild then hold a bounded heap (heap.ts)
sizeHeap();

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
 * A context's own command by name, from the declarations (src/modules/contexts.ts): each says
 * what it needs loaded. Intent's `hook` runs on every prompt, so it loads only its file and the
 * kernel parts; the project's `token create`, which scripts wait for, loads the registry itself
 * where it opens the app (options.ts, `kernelRegistry`).
 */
const contextCommand = async (name: string): Promise<ContextCommand | undefined> => {
  const { contexts } = await import('../modules/contexts.js');
  return contexts.flatMap((c) => Object.entries(c.commands ?? {})).find(([n]) => n === name)?.[1];
};

// `intentlog log | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = async (commands: readonly (() => Command)[]): Promise<Command> =>
  (await import('./program.js')).program(commands, version);

const useModules = async () => {
  const [{ modules, pagesOf, surfacesOf }, { useRegistry }] = await Promise.all([
    import('../modules/index.js'),
    import('./registry.js'),
  ]);
  useRegistry({ modules, surfaces: surfacesOf(modules), pages: pagesOf(modules) });
  return modules;
};

const run = async (name: string | undefined): Promise<Command> => {
  const help = process.argv.includes('--help') || process.argv.includes('-h');
  // hosts start `mcp` on every session: the kernel and the surfaces, bundled as one file
  // (mcp-main.ts); its `--help` lists every surface, so it takes the full path below
  if (name === 'mcp' && !help) return (await import('./mcp-main.js')).mcpProgram(version);
  const own = name === undefined ? undefined : await contextCommand(name);
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
