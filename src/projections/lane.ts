import { BehaviorSubject, Subject } from '../events/rx.js';
import type { LogEvent, ModelOp, ModelStore } from '../events/index.js';
import type { ProjectionStatus, ReadModelFault } from './engine-types.js';
import { modelBatch } from './model-batch.js';
import type { ModelCache } from './model-cache.js';
import {
  checkpointKey,
  owedEffectKey,
  modelPrefix,
  type Checkpoint,
  type Projector,
} from './projector.js';

/**
 * An effect that failed (or overran its deadline) for a page already written: the keys it was
 * told, and the positions around that page. Stored (`owedEffectKey`), so a restart runs it again
 * before the read model folds on; until it succeeds the model's reads stand at `after`.
 */
export type OwedEffect = { keys: string[]; after: number; position: number; message: string };

/** One projector's place in the log, and what waiters watch of it. */
export type Lane = {
  readonly projector: Projector;
  readonly handles: ReadonlySet<string>;
  /** where its next fold starts: what the store holds of it (or holds nothing of it to change) */
  checkpoint: Checkpoint;
  /** the position its reads answer at: the checkpoint, once the page's effect has run */
  readonly folded$: BehaviorSubject<number>;
  /** why it stopped, until it folds again; waiters on it are answered at once */
  fault?: ReadModelFault;
  readonly faulted$: Subject<ReadModelFault>;
  owed?: OwedEffect;
  /** its effect's run in flight: one that overran its deadline may still be running */
  effectRun?: Promise<void>;
  /** split off for being slow: not merged back into a cohort before this time (ms, monotonic) */
  soloUntil: number;
  /** the write of its last folded page, until it ends (it never rejects) */
  committing?: Promise<unknown>;
  /**
   * Pages folded since the last one that writes its checkpoint: a page none of whose events it
   * handles moves its checkpoint in memory only (cohort-page.ts), so a restart may read it again
   */
  unsaved: number;
};

export const newLane = (projector: Projector): Lane => ({
  projector,
  handles: new Set(projector.handles),
  checkpoint: { version: projector.version, position: 0 },
  folded$: new BehaviorSubject(0),
  faulted$: new Subject<ReadModelFault>(),
  soloUntil: 0,
  unsaved: 0,
});

/** The position the lane's reads see. */
export const visible = (lane: Lane): number => lane.folded$.getValue();

export const laneStatus = (lane: Lane, head: number): ProjectionStatus => ({
  name: lane.projector.name,
  version: lane.checkpoint.version,
  position: visible(lane),
  head,
  ...(lane.fault ? { error: lane.fault.message, fault: { ...lane.fault } } : {}),
});

export const advance = (lane: Lane, to: Checkpoint): void => {
  lane.checkpoint = to;
  lane.folded$.next(to.position);
};

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Records a fault (a retry of the same work counts an attempt) and tells its waiters. */
export const faultLane = (
  lane: Lane,
  phase: ReadModelFault['phase'],
  position: number,
  error: unknown,
): ReadModelFault => {
  const same = lane.fault?.phase === phase && lane.fault.position === position;
  const fault: ReadModelFault = {
    phase,
    position,
    message: messageOf(error),
    since: same ? lane.fault!.since : new Date().toISOString(),
    attempts: same ? lane.fault!.attempts + 1 : 1,
  };
  lane.fault = fault;
  lane.faulted$.next(fault);
  return fault;
};

/** Empties the lane's keyspace and puts its checkpoint back to the log's start. */
export const resetLane = async (lane: Lane, store: ModelStore, cache: ModelCache) => {
  const { name, version } = lane.projector;
  await store.clear(modelPrefix(name));
  cache.emptied(modelPrefix(name));
  const fresh = { version, position: 0 };
  await store.write([
    { type: 'put', key: checkpointKey(name), value: fresh },
    { type: 'del', key: owedEffectKey(name) },
  ]);
  delete lane.owed;
  delete lane.fault;
  // a run that overran stays with its old keys: the rebuild's effects start their own
  delete lane.effectRun;
  lane.unsaved = 0;
  advance(lane, fresh);
};

/**
 * Its stored checkpoint; a checkpoint of another version means a rebuild from the start. An
 * effect owed from before a restart keeps its reads where they stood until it is run again.
 */
export const loadLane = async (lane: Lane, store: ModelStore, cache: ModelCache) => {
  const { name, version } = lane.projector;
  const stored = await store.get<Checkpoint>(checkpointKey(name));
  if (stored?.version !== version) return resetLane(lane, store, cache);
  advance(lane, stored);
  const owed = await store.get<OwedEffect>(owedEffectKey(name));
  if (!owed || !lane.projector.effect) return;
  lane.owed = owed;
  lane.folded$.next(owed.after);
  faultLane(lane, 'effect', owed.position, `owed from before a restart: ${owed.message}`);
};

/** A projector threw on the event at `position`; nothing of its page is kept. */
export class FoldFault extends Error {
  constructor(
    readonly position: number,
    cause: unknown,
  ) {
    super(messageOf(cause), { cause });
  }
}

/**
 * The lane's writes for one page of the log (its model changes) and its checkpoint after it. Events
 * at or before its checkpoint were folded already (a cohort carries lanes a little apart).
 * Throws a FoldFault naming the event its projector threw on; nothing is written then.
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
      try {
        await projector.apply(e, tx);
      } catch (error) {
        throw new FoldFault(e.global_position, error);
      }
  const position = Math.max(checkpoint.position, events.at(-1)!.global_position);
  const next = { version: projector.version, position };
  return { ops: batch.ops(), next };
};
