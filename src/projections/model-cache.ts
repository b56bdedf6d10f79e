import type { ModelOp } from '../events/index.js';
import { weigh } from './value-weight.js';

/**
 * How many bytes of decoded read-model values the engine keeps (value-weight.ts's estimate).
 * What a replay's memory stands on: the values are most of what a folding engine holds live,
 * and V8 lets its heap grow to a multiple of what is live (bench/RESULTS.md, sessions 15 and
 * 19). The hot keys of a fold (its maps, the aggregates the log's recent events touch) take a
 * few MB; the rest is reads saved on keys touched again a little later.
 */
export const MODEL_CACHE_BYTES = 24 * 2 ** 20;

export type ModelCacheOptions = {
  /** the bound, in bytes (value-weight.ts) */
  bytes?: number;
  /**
   * The store's count of destroyed content keys (ModelStore.keyGeneration). With it, values
   * written sealed are kept in the clear until it moves; without it, never kept.
   */
  generation?: () => number;
};

/** What one cached value counts against the bound: its key, the entry, the value. */
export const entryWeight = (key: string, value: unknown): number => key.length + 64 + weigh(value);

type Entry = { value: unknown; weight: number };
type Staged = { op: ModelOp; generation: number };

/**
 * Read-model values by key, as the engine last committed or read them (`undefined`: known
 * absent). The engine is the only writer of its projectors' keyspaces, so what it wrote is what
 * the store holds: a projector's read of a hot key (one view per aggregate, folded event after
 * event) costs no store round trip. Bounded in bytes; the entries written or read longest ago
 * go first.
 *
 * A sealed value (one written with `seal`) is kept in the clear only while the store's key
 * generation stands where it stood when the value was read or staged: a shred moves it, and
 * the whole cache is forgotten then (a shred is rare; which keys held that subject's content is
 * not known here), so a fold after a shred reads the store, which answers the value as gone.
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
export const modelCache = ({ bytes = MODEL_CACHE_BYTES, generation }: ModelCacheOptions = {}) => {
  const values = new Map<string, Entry>();
  const staged = new Map<string, Staged>();
  const whole = new Set<string>();
  const ABSENT = Object.freeze({ value: undefined });
  let held = 0;
  /** the oldest entries first, across evictions (see `evict`) */
  let oldest: MapIterator<string> | undefined;
  const now = generation ?? (() => 0);
  let seen = now();

  const wholeOver = (key: string): boolean => {
    for (const prefix of whole) if (key.startsWith(prefix)) return true;
    return false;
  };
  const drop = (key: string): void => {
    const entry = values.get(key);
    if (entry) {
      held -= entry.weight;
      values.delete(key);
    }
    for (const prefix of whole) if (key.startsWith(prefix)) whole.delete(prefix);
  };
  const clear = (): void => {
    values.clear();
    held = 0;
    oldest = undefined;
    whole.clear();
  };
  /** Forgets every value once the key generation has moved (a shred). */
  const current = (): number => {
    const at = now();
    if (at !== seen) {
      clear();
      seen = at;
    }
    return at;
  };
  /**
   * Walks the keys oldest first, across evictions: a Map keeps a deleted entry's slot until it
   * rehashes, so a fresh `keys()` for each eviction stepped over every entry evicted before it
   * (a replay spent seconds there). A live iterator goes on where it stopped, and sees a key
   * set again (moved to the end) when it gets there.
   */
  const evict = (): void => {
    let next = oldest?.next();
    if (!next || next.done) {
      oldest = values.keys();
      next = oldest.next();
    }
    if (!next.done) drop(next.value);
  };
  const keep = (key: string, value: unknown): void => {
    const old = values.get(key);
    if (old) {
      held -= old.weight;
      values.delete(key);
    }
    const weight = entryWeight(key, value);
    // too large to keep: the store holds it, so its keyspace is no longer whole here
    if (weight > bytes) return drop(key);
    values.set(key, { value, weight });
    held += weight;
    while (held > bytes) evict();
  };
  const unstage = (ops: readonly ModelOp[]) => {
    for (const op of ops) if (staged.get(op.key)?.op === op) staged.delete(op.key);
  };
  return {
    get: (key: string): { value: unknown } | undefined => {
      current();
      const stage = staged.get(key);
      if (stage) return { value: stage.op.type === 'put' ? stage.op.value : undefined };
      return values.get(key) ?? (whole.size > 0 && wholeOver(key) ? ABSENT : undefined);
    },
    /** The key generation now: hand it back to `set` with what the store answered after it. */
    generation: current,
    /** What the store answered for `key`, read at generation `since`. */
    set: (key: string, value: unknown, since = current()): void => {
      if (current() === since) keep(key, value);
      else drop(key);
    },
    stage: (ops: readonly ModelOp[]) => {
      const at = current();
      for (const op of ops) staged.set(op.key, { op, generation: at });
    },
    committed: (ops: readonly ModelOp[]) => {
      const at = current();
      for (const op of ops) {
        const stage = staged.get(op.key);
        const since = stage?.op === op ? stage.generation : at;
        if (stage?.op === op) staged.delete(op.key);
        if (op.type === 'del') keep(op.key, undefined);
        // a sealed value is kept in the clear only while no key was destroyed since its write
        else if (!op.seal || (generation && since === at)) keep(op.key, op.value);
        else drop(op.key);
      }
    },
    /** The store did not take them: what it holds is what `values` says. */
    abandoned: unstage,
    /** The store holds nothing under `prefix` now, and every write to it will come through here. */
    emptied: (prefix: string) => {
      for (const key of values.keys()) if (key.startsWith(prefix)) drop(key);
      whole.add(prefix);
    },
    /** Forgets committed values; staged writes stay until their write ends. */
    clear,
    /** the bytes its values weigh now (value-weight.ts) */
    held: () => held,
  };
};
export type ModelCache = ReturnType<typeof modelCache>;
