import { openCatalog, type EventLog } from '../../src/events/index.js';
import { openPostgresEventLog } from '../../src/events/postgres/index.js';
import { dropSchema, freshSchema, storeUrl } from '../postgres/pg-test-db.js';
import { eventLogConformance } from './event-log-conformance.js';

eventLogConformance('postgresql', async (catalog = openCatalog) => {
  const schema = freshSchema('conformance');
  const open = (): Promise<EventLog> => openPostgresEventLog(storeUrl(schema), catalog);
  let log = await open();
  return {
    log,
    close: async () => {
      await log.close();
      await dropSchema(schema);
    },
    reopen: async () => {
      await log.close();
      return (log = await open());
    },
  };
});
