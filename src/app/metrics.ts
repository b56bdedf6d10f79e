import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { commitStats } from '../events/commit-stats.js';
import type { App } from './app.js';
import { healthOf } from './health.js';

/** Seconds: tool calls range from a cached query (~0.2 ms) to a durable batch under load. */
const CALL_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** What the MCP layer reports about each tool call. */
export type CallObserver = (call: {
  surface: string;
  tool: string;
  /** `ok`, or the error code answered */
  outcome: string;
  seconds: number;
}) => void;

/**
 * The process's metrics in the Prometheus text format (`GET /metrics`), through prom-client
 * with a registry of our own (no global state: tests open many apps in one process).
 * Read-model lag, the log's head and the role are read when scraped, not kept up to date.
 */
export const appMetrics = (app: App, options: { store?: string; defaults?: boolean } = {}) => {
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'intentlog_tool_calls_total',
    help: 'MCP tool calls answered, by surface, tool and outcome (ok or the error code)',
    labelNames: ['surface', 'tool', 'outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'intentlog_tool_call_duration_seconds',
    help: 'time from validated arguments to the answer, by surface and tool',
    labelNames: ['surface', 'tool'] as const,
    buckets: CALL_BUCKETS,
    registers: [registry],
  });
  const scrape = { at: 0, health: undefined as Awaited<ReturnType<typeof healthOf>> | undefined };
  // one health read per scrape, however many gauges use it
  const health = async () => {
    if (!scrape.health || Date.now() - scrape.at > 100) {
      scrape.health = await healthOf(app, options.store);
      scrape.at = Date.now();
    }
    return scrape.health;
  };
  new Gauge({
    name: 'intentlog_log_head',
    help: 'global position of the last event in the log',
    registers: [registry],
    async collect() {
      this.set((await health()).head);
    },
  });
  new Gauge({
    name: 'intentlog_writer',
    help: '1 when this process is the writer of its data, 0 when it forwards to one',
    registers: [registry],
    async collect() {
      this.set((await health()).role === 'writer' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'intentlog_read_model_lag_events',
    help: 'events of the log a read model has not folded yet',
    labelNames: ['model'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const m of (await health()).read_models) this.set({ model: m.name }, m.lag);
    },
  });
  new Gauge({
    name: 'intentlog_read_model_position',
    help: 'global position a read model has folded up to',
    labelNames: ['model'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const m of (await health()).read_models) this.set({ model: m.name }, m.position);
    },
  });
  new Gauge({
    name: 'intentlog_sink_lag_events',
    help: 'events of the log a file sink (the missions artifacts) has not written yet',
    labelNames: ['sink'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of (await health()).sinks ?? []) this.set({ sink: s.name }, s.lag);
    },
  });
  new Gauge({
    name: 'intentlog_sink_failing_targets',
    help: 'targets (projects) a file sink could not write at its last try',
    labelNames: ['sink'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of (await health()).sinks ?? []) this.set({ sink: s.name }, s.failing.length);
    },
  });
  commitMetrics(registry);
  const observe: CallObserver = ({ surface, tool, outcome, seconds }) => {
    calls.inc({ surface, tool, outcome });
    latency.observe({ surface, tool }, seconds);
  };
  return {
    registry,
    observe,
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
};

export type AppMetrics = ReturnType<typeof appMetrics>;

/** Seconds: an fsync on a quiet SSD is ~0.1–2 ms, on a loaded shared disk tens of ms. */
const WRITE_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * Group commit (src/events/level/group-commit.ts) and the log's live subscribers. The committer
 * records each durable batch in a ring (src/events/commit-stats.ts); each scrape folds the
 * batches since the last one into the histograms, so the writer's path costs one array store.
 */
const commitMetrics = (registry: Registry) => {
  let seen = 0;
  const batchAppends = new Histogram({
    name: 'intentlog_commit_batch_appends',
    help: 'appends (commands) made durable by one group-commit batch',
    buckets: BATCH_BUCKETS,
    registers: [registry],
    collect: () => drain(),
  });
  const batchEvents = new Counter({
    name: 'intentlog_committed_events_total',
    help: 'events made durable by group commit in this process',
    registers: [registry],
    collect: () => drain(),
  });
  const write = new Histogram({
    name: 'intentlog_commit_write_seconds',
    help: 'the durable write (LevelDB sync: true, the fsync) of one group-commit batch',
    buckets: WRITE_BUCKETS,
    registers: [registry],
    collect: () => drain(),
  });
  const wait = new Histogram({
    name: 'intentlog_commit_wait_seconds',
    help: 'an append from reaching the committer to durable (queueing, staging and the write)',
    buckets: CALL_BUCKETS,
    registers: [registry],
    collect: () => drain(),
  });
  function drain(): void {
    const next = commitStats.since(seen);
    seen = next.seen;
    for (const b of next.batches) {
      batchAppends.observe(b.appends);
      batchEvents.inc(b.events);
      write.observe(b.write_seconds);
      for (const w of b.waits) wait.observe(w);
    }
  }
  new Gauge({
    name: 'intentlog_live_subscribers',
    help: "subscriptions to the log's committed events (read-model lanes, live web views, followers)",
    registers: [registry],
    collect() {
      this.set(commitStats.liveSubscribers());
    },
  });
};
