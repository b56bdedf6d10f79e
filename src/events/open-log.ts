import type { Catalog } from './catalog/catalog.js';
import type { EventLog } from './event-log.js';
import { openMemoryLevel } from './level/level-db.js';
import { levelEventLog } from './level/level-event-log.js';
import { prepareDataDir } from './open-data-dir.js';
import { isPostgresUrl } from './postgres/connection.js';
import { levelElection } from './remote/level-election.js';
import { startWriter } from './remote/route.js';
import { sharedEventLog } from './remote/shared-log.js';
import {
  assertOpNames,
  type SharedEventLog,
  type WriterExtension,
  type WriterOps,
} from './remote/types.js';

export type {
  OnWriter,
  OpArgs,
  OpResult,
  Role,
  SharedEventLog,
  WriterContext,
  WriterExtension,
  WriterOp,
  WriterOps,
} from './remote/types.js';
export { writerSocketPath } from './remote/socket-path.js';
export { assertOpNames } from './remote/types.js';

export type OpenLogOptions<Ops extends WriterOps = WriterOps> = WriterExtension<Ops> & {
  /** LevelDB data directory; ignored for other stores */
  dataDir: string;
  /** `memory`, or a postgres:// URL; default: LevelDB in dataDir */
  store?: string;
  catalog: Catalog;
};

/** PostgreSQL: every instance appends itself (postgres/; loaded only when asked for). */
const openPostgres = async (
  url: string,
  catalog: Catalog,
  onError?: (error: unknown) => void,
): Promise<EventLog> =>
  (await import('./postgres/index.js')).openPostgresEventLog(
    url,
    catalog,
    onError ? { onError } : {},
  );

/** A store every process may write itself: this process is its writer from open to close. */
const inProcess = <Ops extends WriterOps>(log: EventLog, options: OpenLogOptions<Ops>) =>
  sharedEventLog<Ops>(() => startWriter(log, options));

/**
 * Opens the log this process will use, for the life of the process. On LevelDB the process that
 * gets the data dir's lock is the writer and every other one forwards to it (see
 * remote/level-election.ts); stores without a single-process lock make every process a writer.
 * `onWriter` runs whenever this process becomes the writer; `call(op, args)` runs one of `ops`
 * on the writer, wherever it is.
 */
export const openEventLog = async <Ops extends WriterOps = WriterOps>(
  options: OpenLogOptions<Ops>,
): Promise<SharedEventLog<Ops>> => {
  assertOpNames(options.ops);
  if (options.store === 'memory')
    return inProcess(await levelEventLog(await openMemoryLevel(), options.catalog), options);
  if (isPostgresUrl(options.store))
    return inProcess(await openPostgres(options.store, options.catalog, options.onError), options);
  await prepareDataDir(options.dataDir);
  return sharedEventLog<Ops>(levelElection(options));
};
