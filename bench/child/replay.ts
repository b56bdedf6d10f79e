import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ClassicLevel } from 'classic-level';
import { decode, type StoredRecord } from '../../src/events/index.js';
import { Keys } from '../../src/events/level/keys.js';
import { openEventLog } from '../../src/events/open-log.js';
import { allProjectors } from '../../src/modules/index.js';
import { startProjections } from '../../src/projections/index.js';
import { childArgs, memorySampler, reply } from '../child.js';
import { benchCatalog, benchProjector } from '../workload.js';

type Args = { dir: string; mode: 'engine' | 'raw' };
const { dir, mode } = childArgs<Args>();

/** Replays the whole log through every projector, from empty read models. */
const engine = async () => {
  const log = await openEventLog({ dataDir: dir, catalog: benchCatalog });
  await log.models.clear('');
  const started = performance.now();
  const projections = await startProjections(log, [...allProjectors, benchProjector]);
  const ms = performance.now() - started;
  await projections.stop();
  const events = await log.head();
  await log.close();
  return { events, ms };
};

/** The reference: iterate the global log with nextv(1000) and decode every record. */
const raw = async () => {
  const db = new ClassicLevel<Buffer, Buffer>(join(dir, 'log'), {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
  });
  await db.open();
  const started = performance.now();
  const iterator = db.iterator(Keys.globalRange(0));
  let events = 0;
  for (;;) {
    const entries = await iterator.nextv(1000);
    if (entries.length === 0) break;
    for (const [, value] of entries) if (decode<StoredRecord>(value).global_position) events++;
  }
  await iterator.close();
  const ms = performance.now() - started;
  await db.close();
  return { events, ms };
};

const memory = memorySampler();
const result = mode === 'engine' ? await engine() : await raw();
reply({ ...result, ...(await memory.stop()) });
