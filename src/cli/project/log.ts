import { defaultDataDir } from '../../app/data-dir.js';
import { projectModule } from '../../app/project/module.js';
import type { writerProjections } from '../../app/writer-projections.js';
import { createCatalog } from '../../events/catalog/catalog.js';
import { openEventLog, type SharedEventLog } from '../../events/open-log.js';
import type { AppFlags } from '../options.js';

/** The ops a full writer serves for its read models (app/writer-projections.ts). */
export type ReadModelOps = ReturnType<typeof writerProjections>['ops'];

/**
 * The log alone, with the project context's catalog, for a command that appends to it and
 * reads no read model (`token create`): it loads neither the other contexts nor the projection
 * engine. Through the data dir's running writer when there is one (which holds every context);
 * else this process holds the data dir for the command's length without serving followers
 * (remote/types.ts, `serveFollowers`) and folds no read model: the next writer folds what it
 * appended. Always closed, also when the body fails.
 */
export const withProjectLog = async <T>(
  flags: AppFlags,
  body: (log: SharedEventLog<ReadModelOps>) => Promise<T>,
): Promise<T> => {
  const store = flags.store ?? process.env.INTENTLOG_STORE;
  const log = await openEventLog<ReadModelOps>({
    dataDir: flags.dataDir ?? defaultDataDir(),
    catalog: createCatalog(projectModule.events),
    ...(store ? { store } : {}),
    serveFollowers: false,
  });
  try {
    return await body(log);
  } finally {
    await log.close();
  }
};
