// The store conformance suite, run against a follower: a second openEventLog on the same data
// dir in this process cannot take the LevelDB lock, so every call it gets crosses the writer
// socket. Whatever a store must do, a follower must do the same way.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog, type Catalog } from '../../src/events/index.js';
import { openEventLog, type SharedEventLog } from '../../src/events/open-log.js';
import { eventLogConformance } from '../conformance/event-log-conformance.js';

const openFollower = async (dataDir: string, catalog: Catalog): Promise<SharedEventLog> => {
  const log = await openEventLog({ dataDir, catalog });
  assert.equal(log.role(), 'follower');
  return log;
};

eventLogConformance('a follower over the writer socket', async (catalog = openCatalog) => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-follower-conformance-'));
  let writer = await openEventLog({ dataDir: dir, catalog });
  let log = await openFollower(dir, catalog);
  return {
    log,
    foldsWithoutSnapshots: true,
    close: async () => {
      await log.close();
      await writer.close();
      await rm(dir, { recursive: true, force: true });
    },
    // a restart of both processes: the writer's caches start empty
    reopen: async () => {
      await log.close();
      await writer.close();
      writer = await openEventLog({ dataDir: dir, catalog });
      return (log = await openFollower(dir, catalog));
    },
  };
});
