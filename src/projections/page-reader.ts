import type { EventLog, LogEvent } from '../events/index.js';

export const PAGE = 1000;

/** Full pages kept for lanes that trail: a few, since lanes mostly move together. */
const KEPT_PAGES = 8;

/**
 * Pages of the log after a position, shared by the engine's lanes: lanes at the same position
 * (all of them, once caught up) read each page once. A full page never changes (the log is
 * append-only), so it is kept for lanes a little behind; a short page is the log's growing end
 * and is shared only while its read is in flight.
 */
export const pageReader = (log: EventLog) => {
  const full = new Map<number, Promise<LogEvent[]>>();
  const inFlight = new Map<number, Promise<LogEvent[]>>();
  const keep = (after: number, page: Promise<LogEvent[]>) => {
    full.set(after, page);
    if (full.size > KEPT_PAGES) full.delete(full.keys().next().value!);
  };
  return {
    after(after: number): Promise<LogEvent[]> {
      const known = full.get(after) ?? inFlight.get(after);
      if (known) return known;
      const page = log.readAll({ after, limit: PAGE });
      inFlight.set(after, page);
      page.then(
        (events) => {
          inFlight.delete(after);
          if (events.length === PAGE) keep(after, page);
        },
        () => inFlight.delete(after),
      );
      return page;
    },
  };
};
export type PageReader = ReturnType<typeof pageReader>;
