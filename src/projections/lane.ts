import { BehaviorSubject } from '../events/rx.js';
import type { LogEvent, ModelOp, ModelStore } from '../events/index.js';
import { modelBatch, type ModelCache } from './model-batch.js';
import { checkpointKey, modelPrefix, type Checkpoint, type Projector } from './projector.js';

/** One projector's place in the log, and what waiters watch of it. */
export type Lane = {
  readonly projector: Projector;
  readonly handles: ReadonlySet<string>;
  checkpoint: Checkpoint;
  readonly folded$: BehaviorSubject<number>;
  /** the last error its fold met, until it folds again */
  error?: string;
  /** split off for being slow: not merged back into a cohort before this time (ms, monotonic) */
  soloUntil: number;
  /** the write of its last folded page, until it ends (it never rejects) */
  committing?: Promise<unknown>;
};

export const newLane = (projector: Projector): Lane => ({
  projector,
  handles: new Set(projector.handles),
  checkpoint: { version: projector.version, position: 0 },
  folded$: new BehaviorSubject(0),
  soloUntil: 0,
});

export const advance = (lane: Lane, to: Checkpoint): void => {
  lane.checkpoint = to;
  lane.folded$.next(to.position);
};

/** Empties the lane's keyspace and puts its checkpoint back to the log's start. */
export const resetLane = async (lane: Lane, store: ModelStore, cache: ModelCache) => {
  const { name, version } = lane.projector;
  await store.clear(modelPrefix(name));
  cache.emptied(modelPrefix(name));
  const fresh = { version, position: 0 };
  await store.write([{ type: 'put', key: checkpointKey(name), value: fresh }]);
  advance(lane, fresh);
};

/** Its stored checkpoint; a checkpoint of another version means a rebuild from the start. */
export const loadLane = async (lane: Lane, store: ModelStore, cache: ModelCache) => {
  const stored = await store.get<Checkpoint>(checkpointKey(lane.projector.name));
  if (stored?.version === lane.projector.version) advance(lane, stored);
  else await resetLane(lane, store, cache);
};

/**
 * The lane's writes for one page of the log (its model changes) and its checkpoint after it. Events
 * at or before its checkpoint were folded already (a cohort carries lanes a little apart).
 * Throws what the projector throws; nothing is written then.
 */
export const foldPage = async (
  lane: Lane,
  events: readonly LogEvent[],
  store: ModelStore,
  cache: ModelCache,
): Promise<{ ops: ModelOp[]; next: Checkpoint }> => {
  const { projector, checkpoint } = lane;
  const batch = modelBatch(store, cache);
  const tx = batch.txFor(projector.name);
  for (const e of events)
    if (e.global_position > checkpoint.position && lane.handles.has(e.type))
      await projector.apply(e, tx);
  const position = Math.max(checkpoint.position, events.at(-1)!.global_position);
  const next = { version: projector.version, position };
  return { ops: batch.ops(), next };
};
