import { randomBytes } from 'node:crypto';
import type { Decider } from '@event-driven-io/emmett';
import { z } from 'zod';
import { runCommand } from '../src/commands/handler.js';
import {
  createCatalog,
  defineEvent,
  encode,
  SYSTEM_META,
  streamName,
  type EventLog,
} from '../src/events/index.js';
import type { Projector } from '../src/projections/index.js';

/**
 * The one workload every measurement uses: events whose data is about 250 bytes of msgpack,
 * spread over 2,000 streams in 20 projects.
 */
export const STREAMS = 2000;
export const PROJECTS = 20;

export const Recorded = defineEvent(
  'bench.recorded',
  z.object({ n: z.number().int(), note: z.string() }),
);
export const benchCatalog = createCatalog([Recorded]);

// Random notes do not compress: the log holds bytes like real text-heavy payloads, not zeros.
const NOTES = Array.from({ length: 1024 }, () => randomBytes(170).toString('base64'));

export const payload = (n: number) => ({ n, note: NOTES[n % NOTES.length]! });
export const PAYLOAD_BYTES = encode(payload(1)).length;

export const benchStream = (i: number): string =>
  streamName({
    aggregateType: 'bench',
    projectId: `project-${i % PROJECTS}`,
    aggregateId: `stream-${i % STREAMS}`,
  });

type Command = { type: 'Record'; data: { n: number; note: string } };
type Event = { type: 'bench.recorded'; data: { n: number; note: string } };

/** The small decider of the command path: append one event, count them. */
export const benchDecider: Decider<{ count: number }, Command, Event> = {
  decide: (command) => [{ type: 'bench.recorded', data: command.data }],
  evolve: (state) => ({ count: state.count + 1 }),
  initialState: () => ({ count: 0 }),
};

/** One durable command through the full command path (load, decide, append, group commit). */
export const benchCommand = (log: EventLog, stream: string, n: number) =>
  runCommand(log, {
    decider: benchDecider,
    stream,
    command: { type: 'Record', data: payload(n) },
    meta: SYSTEM_META,
    respond: (state) => state.count,
  });

/** A read model per stream, as the product keeps per aggregate (work package, story card). */
export const benchProjector: Projector = {
  name: 'bench',
  version: 1,
  handles: ['bench.recorded'],
  async apply(event, tx) {
    const key = `stream/${event.stream_name}`;
    const view = (await tx.get<{ count: number; last: string }>(key)) ?? { count: 0, last: '' };
    tx.put(key, { count: view.count + 1, last: event.event_id, at: event.created_at });
  },
};
