import { performance } from 'node:perf_hooks';
import type { Event } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { openEventLog } from '../../src/events/open-log.js';
import { childArgs, reply } from '../child.js';
import { benchCatalog, benchStream, payload } from '../workload.js';

/** `at`: a data dir (LevelDB), or a postgres:// URL (ours, or Emmett's store). */
export type CompareBuildArgs = { target: 'level' | 'ours' | 'emmett'; at: string; events: number };

// A replay fixture of exactly `events` events, built the way child/build-log.ts builds the
// kernel's: appends of 10 events, 64 in flight, on the bench streams. Not a measurement.
const args = childArgs<CompareBuildArgs>();
type Appender = { appendToStream(name: string, events: Event[]): Promise<unknown> };
const emmett = args.target === 'emmett' ? getPostgreSQLEventStore(args.at) : undefined;
// Emmett's tables are the database's (in `public`): empty them of the append measurements'
await emmett?.schema.dangerous.truncate();
const opened =
  emmett ??
  (await openEventLog({
    dataDir: args.at,
    ...(args.target === 'ours' ? { store: args.at } : {}),
    catalog: benchCatalog,
  }));
const log: Appender = opened;

let n = 0;
const events = (count: number): Event[] =>
  Array.from({ length: count }, () => ({ type: 'bench.recorded', data: payload(n++) }));
const PER_APPEND = 10;
const appends = Math.ceil(args.events / PER_APPEND);
let next = 0;
const lane = async () => {
  for (let i = next++; i < appends; i = next++)
    await log.appendToStream(
      benchStream(i),
      events(Math.min(PER_APPEND, args.events - i * PER_APPEND)),
    );
};
const started = performance.now();
await Promise.all(Array.from({ length: 64 }, lane));
const ms = performance.now() - started;
await opened.close();
reply({ events: args.events, ms });
