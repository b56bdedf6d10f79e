import type { ModelOp, ModelStore } from '../events/index.js';
import { modelPrefix, type ModelTx } from './projector.js';

/**
 * Read-model values by key, as the engine last committed or read them (`undefined`: known
 * absent). The engine is the only writer of its projectors' keyspaces, so what it wrote is what
 * the store holds: a projector's read of a hot key (one view per aggregate, folded event after
 * event) costs no store round trip. Bounded; the entries written or read longest ago go first. The
 * bound is what a replay's memory stands on: 50,000 decoded views (a story's is ~1.6 KB of
 * msgpack, several times that in the heap) held ~90 MB live on a product-shaped log, and V8
 * lets its heap grow to a multiple of what is live; the hot keys of a fold (its maps, the
 * aggregates the log's recent events touch) are far fewer than 10,000.
 *
 * A keyspace the engine has just emptied (a reset before a rebuild) is `whole`: every key in it
 * that exists is in the cache, so a key it lacks is absent without asking the store (a rebuild
 * otherwise reads every row once from the store to learn it is not there yet). A keyspace stops
 * being whole as soon as any of its entries leaves the cache.
 *
 * Writes handed to the store and not yet acknowledged are `staged`: the engine folds the next
 * page while the last one is written, and that fold must read what the write will hold. Staged
 * writes are never evicted; they leave when the write succeeds (`committed`) or fails
 * (`abandoned`), and a later stage of the same key wins over an earlier one.
 */
/** How many read-model values the engine keeps decoded (see modelCache). */
export const MODEL_CACHE_ENTRIES = 10_000;

export const modelCache = (limit = MODEL_CACHE_ENTRIES) => {
  const values = new Map<string, { value: unknown }>();
  const staged = new Map<string, ModelOp>();
  const whole = new Set<string>();
  const ABSENT = Object.freeze({ value: undefined });
  const wholeOver = (key: string): boolean => {
    for (const prefix of whole) if (key.startsWith(prefix)) return true;
    return false;
  };
  const drop = (key: string): void => {
    values.delete(key);
    for (const prefix of whole) if (key.startsWith(prefix)) whole.delete(prefix);
  };
  /**
   * Walks the keys oldest first, across evictions: a Map keeps a deleted entry's slot until it
   * rehashes, so a fresh `keys()` for each eviction stepped over every entry evicted before it
   * (a replay spent seconds there). A live iterator goes on where it stopped, and sees a key
   * set again (moved to the end) when it gets there.
   */
  let oldest: MapIterator<string> | undefined;
  const evict = (): void => {
    let next = oldest?.next();
    if (!next || next.done) {
      oldest = values.keys();
      next = oldest.next();
    }
    if (!next.done) drop(next.value);
  };
  const set = (key: string, value: unknown): void => {
    values.delete(key);
    values.set(key, { value });
    while (values.size > limit) evict();
  };
  const unstage = (ops: readonly ModelOp[]) => {
    for (const op of ops) if (staged.get(op.key) === op) staged.delete(op.key);
  };
  return {
    get: (key: string): { value: unknown } | undefined => {
      const op = staged.get(key);
      if (op) return { value: op.type === 'put' ? op.value : undefined };
      return values.get(key) ?? (whole.size > 0 && wholeOver(key) ? ABSENT : undefined);
    },
    set,
    stage: (ops: readonly ModelOp[]) => {
      for (const op of ops) staged.set(op.key, op);
    },
    committed: (ops: readonly ModelOp[]) => {
      unstage(ops);
      for (const op of ops)
        // a sealed value is not kept in the clear: after a shred it must read as gone
        if (op.type === 'put' && op.seal) drop(op.key);
        else set(op.key, op.type === 'put' ? op.value : undefined);
    },
    /** The store did not take them: what it holds is what `values` says. */
    abandoned: unstage,
    /** The store holds nothing under `prefix` now, and every write to it will come through here. */
    emptied: (prefix: string) => {
      for (const key of values.keys()) if (key.startsWith(prefix)) values.delete(key);
      whole.add(prefix);
    },
    /** Forgets committed values; staged writes stay until their write ends. */
    clear: () => {
      values.clear();
      oldest = undefined;
      whole.clear();
    },
  };
};
export type ModelCache = ReturnType<typeof modelCache>;

/**
 * The writes of one engine batch across all projectors, with an overlay so a projector reads
 * its own uncommitted writes. Committed with the checkpoints in one ModelStore write.
 */
export const modelBatch = (store: ModelStore, cache?: ModelCache) => {
  const overlay = new Map<string, ModelOp>();
  const txFor = (name: string): ModelTx => {
    const prefix = modelPrefix(name);
    return {
      async get<T>(key: string) {
        const op = overlay.get(prefix + key);
        if (op) return op.type === 'put' ? (op.value as T) : undefined;
        const cached = cache?.get(prefix + key);
        if (cached) return cached.value as T | undefined;
        const value = await store.get<T>(prefix + key);
        cache?.set(prefix + key, value);
        return value;
      },
      put: (key, value, options) =>
        void overlay.set(prefix + key, {
          type: 'put',
          key: prefix + key,
          value,
          ...(options?.seal ? { seal: options.seal } : {}),
        }),
      del: (key) => void overlay.set(prefix + key, { type: 'del', key: prefix + key }),
    };
  };
  return {
    txFor,
    ops: (): ModelOp[] => [...overlay.values()],
  };
};
