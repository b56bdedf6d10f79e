import { performance } from 'node:perf_hooks';
import type { LogEvent, ModelOp, ModelStore } from '../events/index.js';
import { advance, foldPage, type Lane } from './lane.js';
import type { ModelCache } from './model-batch.js';
import { checkpointKey, modelPrefix } from './projector.js';

/**
 * A lane whose fold of one page took this long, and twice what the rest of its cohort took
 * together, goes on alone for a while, so it no longer holds up the read models beside it.
 */
const SLOW_MS = 250;

/** A page folded by a cohort's lanes, not yet written. */
export type FoldedPage = {
  ops: ModelOp[];
  folded: { lane: Lane; next: Lane['checkpoint']; ops: ModelOp[] }[];
  failed: { lane: Lane; error: unknown }[];
  /** lanes that held the rest up on this page */
  slow: Lane[];
};

export type PageWriterOptions = {
  store: ModelStore;
  cache: ModelCache;
  /** run the projectors' effects */
  effects: boolean;
  onError?: (error: unknown, projector: string) => void;
};

/** Folds a page of the log through lanes, and writes what they folded with their checkpoints. */
export const pageWriter = ({ store, cache, effects, onError }: PageWriterOptions) => {
  /** A projector's side effect, after its page is written and before it counts as folded. */
  const runEffect = async (lane: Lane, written: readonly ModelOp[]): Promise<void> => {
    const { effect, name } = lane.projector;
    if (!effects || !effect || written.length === 0) return;
    const prefix = modelPrefix(name);
    const keys = written.map((op) => op.key.slice(prefix.length));
    await effect(keys, store).catch((error: unknown) => onError?.(error, name));
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
      const failed: FoldedPage['failed'] = [];
      const took = new Map<Lane, number>();
      for (const lane of lanes) {
        const started = performance.now();
        try {
          const out = await foldPage(lane, events, store, cache);
          for (const op of out.ops) ops.push(op);
          folded.push({ lane, next: out.next, ops: out.ops });
        } catch (error) {
          failed.push({ lane, error });
        }
        took.set(lane, performance.now() - started);
      }
      const slow: Lane[] = [];
      if (judgeSlow && folded.length >= 2) {
        const total = [...took.values()].reduce((a, b) => a + b, 0);
        for (const { lane } of folded) {
          const ms = took.get(lane) ?? 0;
          if (ms >= SLOW_MS && ms >= 2 * (total - ms)) slow.push(lane);
        }
      }
      return { ops, folded, failed, slow };
    },

    /**
     * Writes a folded page with its lanes' checkpoints in one write. Until the write ends, its
     * ops are staged in the cache, so the next page's fold reads them. Its lanes count as folded
     * (waiters see them) once the write is durable and their effects have run; each lane's
     * `committing` is this write until then. Rejects, with nothing advanced, when the store
     * refuses the write.
     */
    commit(page: FoldedPage): Promise<void> {
      if (page.folded.length === 0) return Promise.resolve();
      const checkpoints = page.folded.map(({ lane, next }): ModelOp => ({
        type: 'put',
        key: checkpointKey(lane.projector.name),
        value: next,
      }));
      cache.stage(page.ops);
      const done = (async () => {
        try {
          await store.write([...page.ops, ...checkpoints]);
        } catch (error) {
          cache.abandoned(page.ops);
          throw error;
        }
        cache.committed(page.ops);
        for (const { lane, next, ops } of page.folded) {
          delete lane.error;
          await runEffect(lane, ops);
          advance(lane, next);
        }
      })();
      const ended = done.catch(() => undefined);
      for (const { lane } of page.folded) lane.committing = ended;
      return done;
    },
  };
};
