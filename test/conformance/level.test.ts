import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { levelEventLog, openCatalog, openClassicLevel } from '../../src/events/index.js';
import { eventLogConformance } from './event-log-conformance.js';

eventLogConformance('classic-level', async (catalog = openCatalog) => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-conformance-'));
  const location = join(dir, 'log');
  let log = await levelEventLog(await openClassicLevel(location), catalog);
  return {
    log,
    close: async () => {
      await log.close();
      await rm(dir, { recursive: true, force: true });
    },
    reopen: async () => {
      await log.close();
      return (log = await levelEventLog(await openClassicLevel(location), catalog));
    },
  };
});
