import { performance } from 'node:perf_hooks';
import type { LogEvent, ModelOp, ModelStore } from '../events/index.js';
import { advance, faultLane, FoldFault, foldPage, type Lane } from './lane.js';
import type { EffectRunner } from './lane-effect.js';
import type { LaneIndex } from './lane-index.js';
import type { ModelCache } from './model-cache.js';
import { checkpointKey, modelPrefix } from './projector.js';

/**
 * A lane whose fold of one page took this long, and twice what the rest of its cohort took
 * together, goes on alone for a while, so it no longer holds up the read models beside it.
 */
export const SLOW_LANE_MS = 250;

/**
 * A page folded by a cohort's lanes, not yet written. `folded` are the lanes written with it:
 * those that handle one of its events, and idle ones whose checkpoint is due (no write for
 * `checkpointEvery` pages). `idle` are the other lanes: nothing of theirs is written.
 */
export type FoldedPage = {
  ops: ModelOp[];
  folded: { lane: Lane; next: Lane['checkpoint']; ops: ModelOp[] }[];
  idle: { lane: Lane; next: Lane['checkpoint'] }[];
  /** lanes whose projector threw, on the event at `position` */
  failed: { lane: Lane; error: unknown; position: number }[];
  /** lanes that held the rest up on this page */
  slow: Lane[];
};

export type PageWriterOptions = {
  store: ModelStore;
  cache: ModelCache;
  /** runs the projectors' effects; absent: none are run (a replay) */
  effects?: EffectRunner;
  onError?: (error: unknown, projector: string) => void;
  /** which lanes handle which event types */
  index: LaneIndex;
  /** an idle lane's checkpoint is written at least once every this many pages */
  checkpointEvery: number;
  /** a lane folding a page this long (ms), and twice the rest, goes on alone */
  slowMs: number;
};

/** The page without the given lanes' folds (they stopped on the page before it). */
export const without = (page: FoldedPage, out: readonly Lane[]): FoldedPage => {
  if (out.length === 0) return page;
  const folded = page.folded.filter((f) => !out.includes(f.lane));
  return {
    folded,
    ops: folded.length === page.folded.length ? page.ops : folded.flatMap((f) => f.ops),
    idle: page.idle.filter((f) => !out.includes(f.lane)),
    failed: page.failed.filter((f) => !out.includes(f.lane)),
    slow: page.slow.filter((l) => !out.includes(l)),
  };
};

/** Folds a page of the log through lanes, and writes what they folded with their checkpoints. */
export const pageWriter = ({
  store,
  cache,
  effects,
  onError,
  index,
  checkpointEvery,
  slowMs,
}: PageWriterOptions) => {
  /**
   * After its page is written: its effect (if it has one and the page changed its keyspace),
   * then its reads see the page. Answers false when the effect failed (the lane stops there).
   */
  const reach = async (lane: Lane, next: Lane['checkpoint'], written: readonly ModelOp[]) => {
    lane.checkpoint = next;
    if (effects && lane.projector.effect && written.length > 0) {
      const prefix = modelPrefix(lane.projector.name);
      const keys = written.map((op) => op.key.slice(prefix.length));
      if (!(await effects.afterWrite(lane, keys, next.position))) return false;
    }
    delete lane.fault;
    advance(lane, next);
    return true;
  };

  /** The write failed: lanes that changed nothing on the page have folded it all the same. */
  const refused = (page: FoldedPage, error: unknown): Lane[] => {
    cache.abandoned(page.ops);
    const stalled: Lane[] = [];
    for (const { lane, next, ops } of page.folded)
      if (ops.length > 0) {
        faultLane(lane, 'write', next.position, error);
        onError?.(error, lane.projector.name);
        stalled.push(lane);
      } else {
        advance(lane, next);
        lane.unsaved = checkpointEvery; // its checkpoint is written with its next page
      }
    return stalled;
  };

  return {
    /**
     * One page through every lane; nothing is written yet. A lane whose fold throws is listed
     * as failed, with nothing of its fold kept. Slowness is judged unless `judgeSlow` is off (a
     * rebuild, which reports its progress to its end).
     */
    async fold(
      lanes: readonly Lane[],
      events: readonly LogEvent[],
      judgeSlow: boolean,
    ): Promise<FoldedPage> {
      const ops: ModelOp[] = [];
      const folded: FoldedPage['folded'] = [];
      const idle: FoldedPage['idle'] = [];
      const failed: FoldedPage['failed'] = [];
      const took = new Map<Lane, number>();
      const touched = index.touched(events);
      const end = events.at(-1)!.global_position;
      for (const lane of lanes) {
        if (!touched.has(lane)) {
          // nothing to fold, no batch: its checkpoint moves in memory, on disk when due
          const { version } = lane.projector;
          const next = { version, position: Math.max(lane.checkpoint.position, end) };
          // counted as folded, not as written: the page before may still be being written
          if (++lane.unsaved < checkpointEvery) idle.push({ lane, next });
          else {
            lane.unsaved = 0;
            folded.push({ lane, next, ops: [] });
          }
          continue;
        }
        const started = performance.now();
        try {
          const out = await foldPage(lane, events, store, cache);
          for (const op of out.ops) ops.push(op);
          folded.push({ lane, next: out.next, ops: out.ops });
          lane.unsaved = 0;
        } catch (error) {
          const fault = error instanceof FoldFault;
          const position = fault ? error.position : events[0]!.global_position;
          failed.push({ lane, error: fault ? error.cause : error, position });
        }
        took.set(lane, performance.now() - started);
      }
      const slow: Lane[] = [];
      // judged among the lanes that folded: an idle one written only for its checkpoint took
      // no time, and beside it any lane would look slow
      if (judgeSlow && took.size >= 2) {
        const total = [...took.values()].reduce((a, b) => a + b, 0);
        for (const [lane, ms] of took)
          if (ms >= slowMs && ms >= 2 * (total - ms) && !failed.some((f) => f.lane === lane))
            slow.push(lane);
      }
      return { ops, folded, idle, failed, slow };
    },

    /**
     * Writes a folded page with its lanes' checkpoints in one write. Until the write ends, its
     * ops are staged in the cache, so the next page's fold reads them. A lane counts as folded
     * (waiters see it) once the write is durable and its own effect has run: the effects run
     * side by side, each under its deadline, so one that hangs holds up no other read model's
     * reads. Answers the lanes that stopped on this page (the store refused their changes, or
     * their effect failed), each with its fault; the caller takes them out of the next page.
     * Each lane's `committing` is this write until it ends.
     */
    commit(page: FoldedPage): Promise<Lane[]> {
      // An idle lane's store already holds all it has up to the page's end (the page before
      // was written before this one is committed): it reaches the end now, without a write.
      for (const { lane, next } of page.idle) {
        delete lane.fault;
        advance(lane, next);
      }
      if (page.folded.length === 0) return Promise.resolve([]);
      const checkpoints = page.folded.map(({ lane, next }): ModelOp => ({
        type: 'put',
        key: checkpointKey(lane.projector.name),
        value: next,
      }));
      cache.stage(page.ops);
      const done = (async (): Promise<Lane[]> => {
        try {
          await store.write([...page.ops, ...checkpoints]);
        } catch (error) {
          return refused(page, error);
        }
        cache.committed(page.ops);
        const reached = await Promise.all(
          page.folded.map(({ lane, next, ops }) => reach(lane, next, ops)),
        );
        return page.folded.filter((_, i) => !reached[i]).map((f) => f.lane);
      })();
      const ended = done.catch(() => undefined);
      for (const { lane } of page.folded) lane.committing = ended;
      return done;
    },
  };
};
