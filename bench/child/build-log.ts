import { performance } from 'node:perf_hooks';
import type { Event } from '@event-driven-io/emmett';
import { openEventLog } from '../../src/events/open-log.js';
import { childArgs, reply } from '../child.js';
import {
  LATENCY_STREAM_EVENTS,
  latencyStream,
  READ_STREAM_EVENTS,
  readStream,
  type BuildArgs,
} from '../logs.js';
import { benchCatalog, benchStream, payload } from '../workload.js';

// Builds a log of exactly `events` events as fast as the store takes them: many appends in
// flight, so group commit makes big durable batches. Not a measurement, a fixture.
const args = childArgs<BuildArgs>();
const log = await openEventLog({ dataDir: args.dir, catalog: benchCatalog });
const started = performance.now();
let n = 0;
const events = (count: number): Event[] =>
  Array.from({ length: count }, () => ({ type: 'bench.recorded', data: payload(n++) }));

const inFlight = async (jobs: (() => Promise<unknown>)[], width = 64) => {
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: width }, lane));
};

const extras = args.latencyStreams * LATENCY_STREAM_EVENTS + args.readStreams * READ_STREAM_EVENTS;
const bulk = Math.max(0, args.events - extras);
const PER_APPEND = 10;
const jobs: (() => Promise<unknown>)[] = [];
for (let i = 0; i * PER_APPEND < bulk; i++) {
  const count = Math.min(PER_APPEND, bulk - i * PER_APPEND);
  jobs.push(() => log.appendToStream(benchStream(i), events(count)));
}
for (let k = 0; k < args.latencyStreams; k++)
  jobs.push(() => log.appendToStream(latencyStream(k), events(LATENCY_STREAM_EVENTS)));
for (let k = 0; k < args.readStreams; k++)
  jobs.push(() => log.appendToStream(readStream(k), events(READ_STREAM_EVENTS)));
await inFlight(jobs);
const head = await log.head();
await log.close();
reply({ events: head, ms: performance.now() - started });
