import { homedir } from 'node:os';
import { join } from 'node:path';
import { projectCommands, tokenCommands } from '../commands/project/project-commands.js';
import { catalog } from '../events/catalog/index.js';
import { openEventLog } from '../events/open-log.js';
import { projectQueries, tokenQueries } from '../projections/queries.js';
import { governanceService } from './governance.js';
import { writerProjections } from './writer-projections.js';

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
  const writer = writerProjections();
  const log = await openEventLog({
    dataDir,
    catalog,
    ...(store ? { store } : {}),
    ops: writer.ops,
    onWriter: writer.onWriter,
  });
  const projections = writer.facade(log);
  const waitFor = projections.waitFor;
  return {
    dataDir,
    log,
    projections,
    /** read-your-writes: wait until the read models have folded the caller's last command */
    waitFor,
    projects: { ...projectCommands(log), ...projectQueries(log.models) },
    tokens: { ...tokenCommands(log), ...tokenQueries(log.models) },
    governance: governanceService(log, waitFor),
    close: () => log.close(),
  };
};

export type App = Awaited<ReturnType<typeof openApp>>;
