import { projectCommands, tokenCommands } from '../commands/project/commands.js';
import type { EventLog } from '../events/index.js';
import { createCatalog } from '../events/catalog/catalog.js';
import { assertOpNames, openEventLog, type WriterOps } from '../events/open-log.js';
import { isPostgresUrl } from '../events/postgres/connection.js';
import type { Projector } from '../projections/projector.js';
import { projectQueries, tokenQueries } from '../projections/project/queries.js';
import { defaultDataDir } from './data-dir.js';
import type { ContextOp, KernelModule } from './kernel-module.js';
import { projectModule } from './project/module.js';
import { writerContexts, type WriterContexts } from './writer-contexts.js';
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

export { defaultDataDir } from './data-dir.js';

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

/** The contexts' writer ops, checked before anything opens: a name declared twice is refused. */
const contextOpsOf = (
  modules: readonly KernelModule[],
  kernelOps: readonly string[],
): [string, ContextOp][] => {
  const ops = modules.flatMap((m) => Object.entries(m.writerOps ?? {}));
  const names = [...kernelOps, ...ops.map(([name]) => name)];
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`writer op ${twice} is declared twice`);
  assertOpNames(Object.fromEntries(ops));
  return ops;
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
  const contextOps = contextOpsOf(modules, Object.keys(writer.ops));
  // the writer serves this object: the contexts' ops join it once the app they run with is open
  // (a call before that is an unknown op, which its caller answers by opening the app itself)
  const served: typeof writer.ops & WriterOps = { ...writer.ops };
  const contexts: WriterContexts | undefined = writerContexts(modules);
  const log = await openEventLog({
    dataDir,
    catalog,
    ...(store ? { store } : {}),
    ops: served,
    onWriter: contexts
      ? async (writing: EventLog): Promise<() => Promise<void>> => {
          const stopProjections = await writer.onWriter(writing);
          // the writer's own log and read models: its work's stop runs after the route closed
          const stopContexts = contexts.start({
            log: writing,
            waitFor: (position, models) =>
              writer.ops['projections.waitFor'](
                models ? { position, models: [...models] } : { position },
              ),
            status: () => writer.ops['projections.status'](),
          });
          return async () => {
            await stopContexts();
            await stopProjections();
          };
        }
      : writer.onWriter,
  });
  const projections = writer.facade(log);
  const app = {
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
  for (const [name, op] of contextOps)
    Object.assign(served, { [name]: (args: unknown) => op(app, args) });
  await contexts?.open(app);
  return app;
};

export type App = Awaited<ReturnType<typeof openApp>>;
