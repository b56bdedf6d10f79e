import { streamName } from '../src/events/index.js';

/** Streams the latency and read measurements use, built into the logs with the bulk. */
export const latencyStream = (k: number): string =>
  streamName({ aggregateType: 'bench', projectId: 'latency', aggregateId: `lat-${k}` });
export const readStream = (k: number): string =>
  streamName({ aggregateType: 'bench', projectId: 'reads', aggregateId: `read-${k}` });

export const LATENCY_STREAM_EVENTS = 10;
export const READ_STREAM_EVENTS = 100;

export type BuildArgs = {
  dir: string;
  events: number;
  latencyStreams: number;
  readStreams: number;
};
export type BuildResult = { events: number; ms: number };
