import type { Event } from '@event-driven-io/emmett';
import { z } from 'zod';
import {
  createCatalog,
  defineEvent,
  openCatalog,
  streamName,
  type Catalog,
  type EventLog,
  type LogEvent,
  type ReadPage,
  type StoredRecord,
} from '../../src/events/index.js';

export type OpenedStore = {
  log: EventLog;
  close(): Promise<void>;
  /**
   * Optional: closes `log` and opens a new instance over the same storage (fresh caches), as a
   * restarted process would. `close` then closes the newest instance.
   */
  reopen?(): Promise<EventLog>;
  /**
   * A follower folds what it reads in its own process: snapshots are the writer's folds' cache,
   * so the suites that watch a fold start from a snapshot skip it.
   */
  foldsWithoutSnapshots?: true;
};

/** One store under test: a fresh, empty log per call, with the given catalog. */
export type OpenStore = (catalog?: Catalog) => Promise<OpenedStore>;

/** Opens a fresh log, runs the body, always closes. */
export const withLog = async <T>(
  open: OpenStore,
  body: (log: EventLog, store: OpenedStore) => Promise<T>,
  catalog: Catalog = openCatalog,
): Promise<T> => {
  const store = await open(catalog);
  try {
    return await body(store.log, store);
  } finally {
    await store.close();
  }
};

export const stream = (projectId: string, aggregateId: string, aggregateType = 'thing') =>
  streamName({ aggregateType, projectId, aggregateId });

export const ev = (n: number, extra: Record<string, unknown> = {}): Event => ({
  type: 'thing.happened',
  data: { n, ...extra },
});

export const sealed = (subject: string, text: string): Event =>
  ({ type: 'thing.said', data: { text }, metadata: { seal: subject } }) as Event;

/** Reads everything a paged read returns, page by page. */
export const readEverything = async <T extends { global_position: number } | { cursor: number }>(
  read: (page: ReadPage) => Promise<T[]>,
  position: (item: T) => number,
  limit = 1000,
): Promise<T[]> => {
  const all: T[] = [];
  for (;;) {
    const page = await read({ after: all.length > 0 ? position(all.at(-1)!) : 0, limit });
    all.push(...page);
    if (page.length < limit) return all;
  }
};

export const allEvents = (log: EventLog): Promise<LogEvent[]> =>
  readEverything(
    (p) => log.readAll(p),
    (e) => e.global_position,
  );

export const allRaw = (log: EventLog): Promise<StoredRecord[]> =>
  readEverything(
    (p) => log.readRaw(p),
    (e) => e.global_position,
  );

export const projectEvents = (log: EventLog, projectId: string): Promise<LogEvent[]> =>
  readEverything(
    (p) => log.readProject(projectId, p),
    (e) => e.cursor,
  );

/** 1..n */
export const range1 = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** The error a promise rejects with (fails the test if it resolves). */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
};

/** A catalog with real schemas, for the tests where validation is under test. */
export const strictCatalog: Catalog = createCatalog([
  defineEvent('thing.happened', z.object({ n: z.number().int() })),
  defineEvent('thing.said', z.object({ text: z.string() })),
]);
