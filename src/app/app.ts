import { homedir } from 'node:os';
import { join } from 'node:path';
import { projectCommands, tokenCommands } from '../commands/project/project-commands.js';
import { createCatalog } from '../events/catalog/catalog.js';
import { openEventLog } from '../events/open-log.js';
import { isPostgresUrl } from '../events/postgres/connection.js';
import type { Projector } from '../projections/projector.js';
import { projectQueries, tokenQueries } from '../projections/queries.js';
import type { KernelModule } from './kernel-module.js';
import { projectModule } from './project-module.js';
import { writerProjections } from './writer-projections.js';

export type AppOptions = {
  /** the contexts served on top of the project context (src/modules/index.ts lists them) */
  modules?: readonly KernelModule[];
  /** default: $INTENTLOG_HOME, else ~/.intentlog */
  dataDir?: string;
  /** `memory` or a postgres:// URL; default: the embedded LevelDB store in dataDir */
  store?: string;
  /** the time commands are decided at; a fake clock in tests (leases, quiet claims) */
  clock?: () => Date;
};

/** The project context first, then the contexts built on it. */
export const withProject = (modules: readonly KernelModule[] = []): KernelModule[] => [
  projectModule,
  ...modules,
];

export const defaultDataDir = (): string =>
  process.env.INTENTLOG_HOME ?? join(homedir(), '.intentlog');

/** Every context's event types in one catalog; a type two contexts declare is refused by name. */
export const catalogOf = (modules: readonly KernelModule[]) => {
  const owner = new Map<string, string>();
  for (const m of modules)
    for (const e of m.events) {
      const other = owner.get(e.type);
      if (other !== undefined)
        throw new Error(`event type ${e.type} is declared by both ${other} and ${m.name}`);
      owner.set(e.type, m.name);
    }
  return createCatalog(modules.flatMap((m) => m.events));
};

const projectorsOf = (modules: readonly KernelModule[]): Projector[] => {
  const all = modules.flatMap((m) => m.projectors ?? []);
  const names = all.map((p) => p.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`read model ${twice} is declared twice`);
  return all;
};

/**
 * The composition root of the kernel: the log, the read models kept by the projection engine,
 * the clock, and the project context every surface shares. Contexts add their services with
 * `perApp` (per-app.ts); the App knows none of them.
 */
export const openApp = async (options: AppOptions = {}) => {
  const dataDir = options.dataDir ?? defaultDataDir();
  const store = options.store ?? process.env.INTENTLOG_STORE;
  const modules = withProject(options.modules);
  const catalog = catalogOf(modules);
  const projectors = projectorsOf(modules);
  const writer = writerProjections(projectors);
  const log = await openEventLog({
    dataDir,
    catalog,
    ...(store ? { store } : {}),
    ops: writer.ops,
    onWriter: writer.onWriter,
  });
  const projections = writer.facade(log);
  return {
    dataDir,
    /** which store holds the log: only `level` keeps its bytes in dataDir */
    storeKind:
      store === 'memory'
        ? ('memory' as const)
        : isPostgresUrl(store)
          ? ('postgres' as const)
          : ('level' as const),
    log,
    catalog,
    projectors,
    projections,
    /**
     * Read-your-writes: resolves once the named read models (every one when none is named)
     * have folded the log up to `position`; a wait that times out is `unavailable`.
     */
    waitFor: projections.waitFor,
    clock: options.clock ?? (() => new Date()),
    /** the contexts' own audit checks (`audit verify` runs them after the read models) */
    audits: modules.flatMap((m) => m.audits ?? []),
    projects: { ...projectCommands(log), ...projectQueries(log.models) },
    tokens: { ...tokenCommands(log), ...tokenQueries(log.models) },
    close: () => log.close(),
  };
};

export type App = Awaited<ReturnType<typeof openApp>>;
