import type { EventLog } from '../../events/index.js';

/**
 * The cursor of a project's newest event (0: none yet): where an index kept in memory, built
 * from the read models, starts following the project's events from.
 */
export const lastProjectCursor = async (log: EventLog, projectId: string): Promise<number> => {
  let cursor = 0;
  for (;;) {
    const page = await log.readProject(projectId, { after: cursor, limit: 10_000 });
    if (page.length === 0) return cursor;
    cursor = page[page.length - 1]!.cursor;
  }
};
