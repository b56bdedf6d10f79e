import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ClassicLevel } from 'classic-level';
import { decode, type StoredRecord } from '../../src/events/index.js';
import { Keys } from '../../src/events/level/keys.js';
import { openEventLog } from '../../src/events/open-log.js';
import { allProjectors, fullCatalog } from '../../src/modules/index.js';
import { startProjections, type Projector } from '../../src/projections/index.js';
import { sizeHeap } from '../../src/cli/heap.js';
import { childArgs, memorySampler, reply } from '../child.js';
import { benchCatalog, benchProjector } from '../workload.js';

/**
 * `engine`: every product read model and the bench's per-stream view; `view`: that view alone
 * (the only one that folds `bench.recorded`: the others are idle on every page); `raw`: the
 * reference. `catalog: 'product'` reads a log the product's services wrote (bench/product-log.ts).
 */
export type ReplayArgs = { dir: string; mode: 'engine' | 'view' | 'raw'; catalog?: 'product' };
const { dir, mode, catalog } = childArgs<ReplayArgs>();
// the heap as the CLI sizes it for `serve`, `mcp` and a rebuild
sizeHeap();

/**
 * Replays the whole log through the read models, from empty ones, as the product runs them:
 * on the writer's own log (`onWriter`), not through the facade every process calls.
 */
const engine = async (projectors: readonly Projector[]) => {
  let replayed!: (ms: number) => void;
  const ms = new Promise<number>((resolve) => (replayed = resolve));
  const log = await openEventLog({
    dataDir: dir,
    catalog: catalog === 'product' ? fullCatalog() : benchCatalog,
    onWriter: async (own) => {
      await own.models.clear('');
      const started = performance.now();
      const projections = await startProjections(own, projectors);
      replayed(performance.now() - started);
      await projections.stop();
      return async () => {};
    },
  });
  const result = { events: await log.head(), ms: await ms };
  await log.close();
  return result;
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
const cpu = process.cpuUsage();
const result =
  mode === 'raw'
    ? await raw()
    : await engine(mode === 'view' ? [benchProjector] : [...allProjectors, benchProjector]);
const { user, system } = process.cpuUsage(cpu);
reply({ ...result, cpuMs: (user + system) / 1000, ...(await memory.stop()) });
