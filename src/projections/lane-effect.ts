import type { ModelStore } from '../events/index.js';
import { faultLane, visible, type Lane } from './lane.js';
import { owedEffectKey } from './projector.js';

/** How long one effect may run before its read model is reported failed. */
export const EFFECT_DEADLINE_MS = 10_000;

class EffectOverran extends Error {
  constructor(ms: number) {
    super(`the effect did not finish within ${ms} ms`);
  }
}

/**
 * A lane's effect with a deadline. A run that overruns is left running (a promise cannot be
 * stopped) and kept on the lane, so a retry waits on that run instead of starting a second one
 * beside it; an effect may still be run twice in sequence, which it must allow.
 */
const runOnce = async (lane: Lane, keys: readonly string[], store: ModelStore, ms: number) => {
  const effect = lane.projector.effect!;
  if (!lane.effectRun) {
    // called inside an async function: an effect that throws at once rejects like the others
    const run = (async () => effect(keys, store))();
    lane.effectRun = run;
    const forget = () => {
      if (lane.effectRun === run) delete lane.effectRun;
    };
    run.then(forget, forget);
  }
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new EffectOverran(ms)), ms);
    timer.unref();
  });
  try {
    await Promise.race([lane.effectRun, overrun]);
  } finally {
    clearTimeout(timer);
  }
};

export type EffectRunner = {
  /**
   * Runs the lane's effect for a page just written up to `position`; true when it ran. One
   * that failed is owed: stored (best effort: a full disk may refuse that too), reported on
   * the lane, and its reads stay where they stood.
   */
  afterWrite(lane: Lane, keys: readonly string[], position: number): Promise<boolean>;
  /** Runs an owed effect again; true once it ran and its reads reached its page. */
  retryOwed(lane: Lane): Promise<boolean>;
};

export const effectRunner = (
  store: ModelStore,
  deadlineMs: number,
  onError?: (error: unknown, projector: string) => void,
): EffectRunner => {
  const failed = (lane: Lane, position: number, error: unknown) => {
    faultLane(lane, 'effect', position, error);
    onError?.(error, lane.projector.name);
  };
  return {
    async afterWrite(lane, keys, position) {
      try {
        await runOnce(lane, keys, store, deadlineMs);
        return true;
      } catch (error) {
        const owed = {
          keys: [...keys],
          after: visible(lane),
          position,
          message: error instanceof Error ? error.message : String(error),
        };
        lane.owed = owed;
        failed(lane, position, error);
        await store
          .write([{ type: 'put', key: owedEffectKey(lane.projector.name), value: owed }])
          .catch((refused: unknown) => onError?.(refused, lane.projector.name));
        return false;
      }
    },
    async retryOwed(lane) {
      const owed = lane.owed;
      if (!owed) return true;
      try {
        await runOnce(lane, owed.keys, store, deadlineMs);
      } catch (error) {
        failed(lane, owed.position, error);
        return false;
      }
      try {
        await store.write([{ type: 'del', key: owedEffectKey(lane.projector.name) }]);
      } catch (error) {
        // ran, but a restart would run it again: harmless, and said
        onError?.(error, lane.projector.name);
      }
      delete lane.owed;
      lane.folded$.next(owed.position);
      return true;
    },
  };
};

/**
 * Runs the effects the lanes owe (from an earlier page, or from before a restart) before they
 * fold on; answers the lanes that still owe theirs. An engine that runs no effects (a replay)
 * owes none.
 */
export const settleOwed = async (
  lanes: readonly Lane[],
  effects: EffectRunner | undefined,
): Promise<Lane[]> => {
  const stalled: Lane[] = [];
  for (const lane of lanes.filter((l) => l.owed)) {
    if (!effects || (await effects.retryOwed(lane))) {
      if (lane.owed) lane.folded$.next(lane.owed.position);
      delete lane.owed;
      delete lane.fault;
    } else stalled.push(lane);
  }
  return stalled;
};
