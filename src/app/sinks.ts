import { readsOf } from '../projections/read-model.js';

/*
 * The file sinks a process runs (effects written for people, off the write path: the missions
 * artifacts), as `GET /healthz`, `/metrics` and a context's own health tool tell them. A sink
 * follows the log from a checkpoint of its own; a call never waits on it, so a slow or full
 * disk shows here, never as a refused call.
 */

/** Where sinks keep their checkpoints and state, beside the read models: `_sink/<name>/…`. */
const SINK_SPACE = '_sink';
export const SINK_PREFIX = `${SINK_SPACE}/`;
/** Typed reads of a sink's own keys (each sink builds its keys under its name). */
export const sinkReads = <V>() => readsOf<V>(SINK_SPACE);

export type SinkFailure = { target: string; reason: string; at: string };

export type SinkHealth = {
  name: string;
  /** the log position its files are written up to */
  position: number;
  /** targets (projects) it could not write, each with its last failure */
  failing: SinkFailure[];
  /** when the run under way started (ISO 8601): a slow disk shows as a run that lasts */
  running_since: string | null;
};

const registered = new WeakMap<object, Map<string, () => SinkHealth>>();

/** Registers a sink of an app while it runs; answers how to take it off. */
export const registerSink = (app: object, name: string, health: () => SinkHealth) => {
  const sinks = registered.get(app) ?? new Map<string, () => SinkHealth>();
  registered.set(app, sinks);
  sinks.set(name, health);
  return () => {
    if (sinks.get(name) === health) sinks.delete(name);
  };
};

/** The sinks this process runs for an app (none in a follower: they run with the writer). */
export const sinksOf = (app: object): SinkHealth[] =>
  [...(registered.get(app)?.values() ?? [])].map((health) => health());
