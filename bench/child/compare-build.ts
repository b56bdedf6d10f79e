import { performance } from 'node:perf_hooks';
import type { Event } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { openEventLog } from '../../src/events/open-log.js';
import { childArgs, reply } from '../child.js';
import { benchCatalog, benchStream, payload } from '../workload.js';

export type PgBuildArgs = { target: 'ours' | 'emmett'; store: string; events: number };

// A replay fixture of exactly `events` events, built as child/build-log.ts builds the LevelDB
// one: appends of 10 events, 64 in flight, on the bench streams. Not a measurement.
const args = childArgs<PgBuildArgs>();
type Appender = { appendToStream(name: string, events: Event[]): Promise<unknown> };
const opened =
  args.target === 'ours'
    ? await openEventLog({ dataDir: '', store: args.store, catalog: benchCatalog })
    : getPostgreSQLEventStore(args.store);
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
