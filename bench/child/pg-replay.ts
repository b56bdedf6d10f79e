import { performance } from 'node:perf_hooks';
import { dumbo } from '@event-driven-io/dumbo';
import { readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import { openEventLog } from '../../src/events/open-log.js';
import { allProjectors, startProjections } from '../../src/projections/index.js';
import { childArgs, memorySampler, reply } from '../child.js';
import { benchCatalog, benchProjector } from '../workload.js';

export type PgReplayArgs = { store: string; mode: 'engine' | 'raw' | 'emmett' };
const { store, mode } = childArgs<PgReplayArgs>();
const PAGE = 1000;

/**
 * Our store, as an instance starting up does: every projector from empty read models (on
 * PostgreSQL they are in memory, per instance).
 */
const engine = async () => {
  const log = await openEventLog({ dataDir: '', store, catalog: benchCatalog });
  const started = performance.now();
  const projections = await startProjections(log, [...allProjectors, benchProjector]);
  const ms = performance.now() - started;
  await projections.stop();
  const events = await log.head();
  await log.close();
  return { events, ms };
};

/** Our store's reference: the stored records in global order, 1000 a page, decoded. */
const raw = async () => {
  const log = await openEventLog({ dataDir: '', store, catalog: benchCatalog });
  const started = performance.now();
  let events = 0;
  for (let after = 0; ;) {
    const page = await log.readRaw({ after, limit: PAGE });
    if (page.length === 0) break;
    events += page.length;
    after = page.at(-1)!.global_position;
  }
  const ms = performance.now() - started;
  await log.close();
  return { events, ms };
};

/** Emmett's PostgreSQL store read the way its consumers read it: readMessagesBatch, 1000 a page. */
const emmett = async () => {
  const pool = dumbo({ connectionString: store });
  const started = performance.now();
  let events = 0;
  for (let after = 0n; ;) {
    const batch = await readMessagesBatch(pool.execute, { after, batchSize: PAGE });
    if (batch.messages.length === 0) break;
    events += batch.messages.length;
    after = batch.currentGlobalPosition;
  }
  const ms = performance.now() - started;
  await pool.close();
  return { events, ms };
};

const memory = memorySampler();
const result = mode === 'engine' ? await engine() : mode === 'raw' ? await raw() : await emmett();
reply({ ...result, ...(await memory.stop()) });
