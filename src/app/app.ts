import { homedir } from 'node:os';
import { join } from 'node:path';
import { projectCommands, tokenCommands } from '../commands/project/project-commands.js';
import { catalog } from '../events/catalog/index.js';
import type { EventLog } from '../events/index.js';
import { openEventLog } from '../events/open-log.js';
import { allProjectors, startProjections, type ProjectionEngine } from '../projections/index.js';
import { projectQueries, tokenQueries } from '../projections/queries.js';
import { governanceService } from './governance.js';

export type AppOptions = {
  /** default: $INTENTLOG_HOME, else ~/.intentlog */
  dataDir?: string;
  /** `memory` or a postgres:// URL; default: the embedded LevelDB store in dataDir */
  store?: string;
};

export const defaultDataDir = (): string =>
  process.env.INTENTLOG_HOME ?? join(homedir(), '.intentlog');

/**
 * The composition root: the log, the read models kept by the projection engine, and the
 * command and query services every surface and CLI command uses.
 */
export const openApp = async (options: AppOptions = {}) => {
  const dataDir = options.dataDir ?? defaultDataDir();
  const store = options.store ?? process.env.INTENTLOG_STORE;
  const log: EventLog = await openEventLog({ dataDir, catalog, ...(store ? { store } : {}) });
  const engine: ProjectionEngine = await startProjections(log, allProjectors);
  return {
    dataDir,
    log,
    projections: engine,
    /** read-your-writes: wait until the read models have folded the caller's last command */
    waitFor: (position: number) => engine.waitFor(position),
    projects: { ...projectCommands(log), ...projectQueries(log.models) },
    tokens: { ...tokenCommands(log), ...tokenQueries(log.models) },
    governance: governanceService(log, (position) => engine.waitFor(position)),
    async close() {
      await engine.stop();
      await log.close();
    },
  };
};

export type App = Awaited<ReturnType<typeof openApp>>;
