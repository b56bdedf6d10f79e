import { levelEventLog, openCatalog, openMemoryLevel } from '../../src/events/index.js';
import { eventLogConformance } from './event-log-conformance.js';

eventLogConformance('memory-level', async (catalog = openCatalog) => {
  const db = await openMemoryLevel();
  let log = await levelEventLog(db, catalog);
  return {
    log,
    close: () => log.close(),
    // memory-level cannot be closed and reopened: a new log over the same database, with its
    // caches empty, stands in for a restarted process.
    reopen: async () => (log = await levelEventLog(db, catalog)),
  };
});
