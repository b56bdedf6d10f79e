import type { EventLog, LogEvent, ReadPage } from '../events/index.js';
import { toSyncEnvelope } from '../events/index.js';

const PAGE = 1000;

/** Where a listing reads from: one project by cursor, or the whole log by global position. */
export type EventSource = {
  read(page: ReadPage): Promise<LogEvent[]>;
  /** the position a listing resumes after: cursor in a project, else global position */
  positionOf(event: LogEvent): number;
};

export const eventSource = (log: EventLog, projectId?: string): EventSource =>
  projectId === undefined
    ? {
        read: (page) => log.readAll(page),
        positionOf: (e) => e.global_position,
      }
    : {
        read: (page) => log.readProject(projectId, page),
        positionOf: (e) => e.cursor,
      };

/** Every event after `after`, page by page; returns the last position seen. */
export const eachPage = async (
  source: EventSource,
  after: number,
  body: (events: LogEvent[]) => Promise<void>,
): Promise<number> => {
  let last = after;
  for (;;) {
    const events = await source.read({ after: last, limit: PAGE });
    if (events.length > 0) {
      await body(events);
      last = source.positionOf(events.at(-1)!);
    }
    if (events.length < PAGE) return last;
  }
};

/** One envelope per line, exactly the fields `sync_since` returns. */
export const jsonLine = (event: LogEvent): string => `${JSON.stringify(toSyncEnvelope(event))}\n`;

/** One readable line per event. */
export const textLine = (e: LogEvent): string => {
  const payload = e.shredded ? '(shredded)' : JSON.stringify(e.data);
  const who = `${e.actor_id}(${e.actor_role})`;
  const where = `${e.project_id}#${e.cursor}`;
  const what = `${e.aggregate_type}/${e.aggregate_id}`;
  return `${e.global_position}\t${e.created_at}\t${where}\t${e.type}\t${what}\t${who}\t${payload}\n`;
};
