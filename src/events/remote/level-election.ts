import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Catalog } from '../catalog/catalog.js';
import { openClassicLevel, type LevelDb } from '../level/level-db.js';
import { guardWrites } from '../level/write-guard.js';
import { checkLogTail } from '../level/level-tail.js';
import { levelEventLog } from '../level/level-event-log.js';
import { isReadOnlyFailure } from '../open-snapshot.js';
import { LogClosedError } from './errors.js';
import type { Elect } from './route-keeper.js';
import { startWriter, type Endpoint, type Route } from './route.js';
import { connectWriter } from './writer-client.js';
import { serveWriter } from './writer-server.js';
import { writerSocketPath } from './socket-path.js';
import type { WriterExtension } from './types.js';

/** How long opening waits for a writer that holds the lock but does not answer yet. */
const OPEN_TIMEOUT_MS = 30_000;

const isLocked = (error: unknown): boolean => {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return code === 'LEVEL_LOCKED' || cause?.code === 'LEVEL_LOCKED';
};

/**
 * Opens the database if no other process holds its lock; LevelDB's lock makes one writer. Its
 * files are checked under the lock (level-db.ts): one that fails is corrupt, not being rewritten.
 */
const tryLock = async (location: string): Promise<LevelDb | undefined> => {
  try {
    return await openClassicLevel(location);
  } catch (error) {
    if (isLocked(error)) return undefined;
    throw error;
  }
};

/** A few ms at first, then up to ~150 ms, jittered so racing followers do not march in step. */
const backoff = (attempt: number): number =>
  Math.min(5 * 2 ** attempt, 100) * (0.5 + Math.random());

export type LevelElectionOptions = WriterExtension & { dataDir: string; catalog: Catalog };

/**
 * The election for one LevelDB data dir: whoever opens the lock becomes the writer and serves
 * the socket; everyone else connects to it. When nobody answers (the writer is starting, or
 * died and left its socket behind) try the lock again, then the socket, until one works. The
 * first election (at open) gives up after OPEN_TIMEOUT_MS; one after a takeover never does.
 */
export const levelElection = (options: LevelElectionOptions): Elect => {
  const location = join(options.dataDir, 'log');
  const socketPath = writerSocketPath(options.dataDir);
  let first = true;
  const report = options.onError ?? ((error: unknown) => process.emitWarning(error as Error));
  const becomeWriter = async (db: LevelDb): Promise<Route> => {
    const guard = guardWrites(db, {
      dataDir: options.dataDir,
      location,
      onFault: (fault, error) =>
        report(
          new Error(`a write to ${location} failed (${fault.cause}); writes are refused`, {
            cause: error,
          }),
        ),
    });
    const opened = checkLogTail(db, location).then(() =>
      levelEventLog(db, options.catalog, guard.fault),
    );
    const log = await opened.catch(async (error: unknown) => {
      guard.stop();
      await db.close();
      throw error;
    });
    const serve =
      options.serveFollowers === false
        ? undefined
        : (endpoint: Endpoint) => serveWriter(socketPath, endpoint);
    const route = await startWriter(log, options, serve).catch((error: unknown) => {
      guard.stop();
      throw error;
    });
    const reopen = guard.failed.then((error) => {
      report(new Error(`a write to ${location} failed; reopening the store`, { cause: error }));
      return error;
    });
    const close = () => (guard.stop(), route.close());
    return { ...route, close, failed: reopen };
  };

  const lockOrConnect = async (onLost: () => void): Promise<Route | undefined> => {
    let db: LevelDb | undefined;
    try {
      db = await tryLock(location);
    } catch (error) {
      // a data dir this process cannot write: reading through a running writer still works
      if (!isReadOnlyFailure(error)) throw error;
      const route = await connectWriter(socketPath, onLost);
      if (route) return route;
      throw error;
    }
    return db ? becomeWriter(db) : connectWriter(socketPath, onLost);
  };

  return async ({ onLost, closed, failing }) => {
    const atOpen = first;
    first = false;
    const deadline = Date.now() + OPEN_TIMEOUT_MS;
    let said: string | undefined;
    for (let attempt = 0; ; attempt++) {
      if (closed()) throw new LogClosedError();
      try {
        const route = await lockOrConnect(onLost);
        if (route) return route;
      } catch (error) {
        if (atOpen) throw error;
        // no caller to tell: keep trying, another process may win; each failure said once
        // (a data dir this process cannot write fails the same way at every attempt)
        const text = error instanceof Error ? error.message : String(error);
        if (text !== said) report(error);
        said = text;
        failing?.(error);
      }
      if (atOpen && Date.now() > deadline)
        throw new Error(
          `${options.dataDir} is locked by a process that does not answer on ${socketPath}`,
        );
      await sleep(backoff(attempt));
    }
  };
};
