import { decode, encode, type ModelOp, type ModelRange, type ModelStore } from '../events/index.js';

/**
 * Orders keys as a level database does (by their UTF-8 bytes, that is by code point): UTF-16
 * code units agree except that surrogates (U+D800–DFFF, the astral planes) sort above
 * U+E000–FFFF, so those two bands are swapped before comparing.
 */
const byBytes = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
};

/** The entries under a prefix, in key order, from keys already sorted. */
const rangeOf = <T>(
  values: ReadonlyMap<string, unknown>,
  sorted: readonly string[],
  { prefix, limit, reverse }: ModelRange,
  copy: (value: unknown) => unknown,
): [string, T][] => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byBytes(sorted[mid]!, prefix) < 0) low = mid + 1;
    else high = mid;
  }
  let end = low;
  while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
  const keys = sorted.slice(low, end);
  if (reverse) keys.reverse();
  const wanted = limit === undefined || limit < 0 ? keys : keys.slice(0, limit);
  // a key holding undefined reads as absent, as in a level store
  return wanted.flatMap((k): [string, T][] => {
    const value = values.get(k);
    return value === undefined ? [] : [[k, copy(value) as T]];
  });
};

/**
 * A value read from a kept state goes through the codec, as a level store's read does: the
 * page gets its own copy, and whatever it does to it never reaches the state later pages read.
 */
const codecCopy = (value: unknown): unknown =>
  value === undefined ? value : decode(encode(value));

/**
 * A read-only store over a frozen map of values (a kept state of a `valueModels`). Its keys are
 * sorted once, on the first range read.
 */
const frozenStore = (values: ReadonlyMap<string, unknown>): ModelStore => {
  let sorted: string[] | undefined;
  const refuse = () =>
    Promise.reject(new Error('a kept past state of the read models is read-only'));
  return {
    get: async <T>(key: string) => codecCopy(values.get(key)) as T | undefined,
    getMany: async <T>(keys: string[]) =>
      keys.map((k) => codecCopy(values.get(k)) as T | undefined),
    async range<T>(range: ModelRange) {
      sorted ??= [...values.keys()].sort(byBytes);
      return rangeOf<T>(values, sorted, range, codecCopy);
    },
    write: refuse,
    clear: refuse,
  };
};

/**
 * Read models as JavaScript values in a map, for a fold that lives in memory and only moves
 * forward (time travel's spine). The engine's own fold reads back the very objects it wrote:
 * projectors never change a value they read (the engine's model cache hands them the objects
 * it wrote too), so nothing is encoded, copied or collected per event, which in a level store
 * in memory was most of a past rebuild's time. A sealed value is kept in the clear: the store
 * dies with the process, as a store sealed under a throwaway key would.
 *
 * `keep()` freezes the current values as a read-only store (a copy of the map, not of the
 * values, which are never changed once written), and `from(kept)` starts a new forward fold
 * from one of them.
 */
export const valueModels = (start: ReadonlyMap<string, unknown> = new Map()) => {
  const values = new Map(start);
  const store: ModelStore = {
    get: async <T>(key: string) => values.get(key) as T | undefined,
    getMany: async <T>(keys: string[]) => keys.map((k) => values.get(k) as T | undefined),
    async range<T>(range: ModelRange) {
      const sorted = [...values.keys()].filter((k) => k.startsWith(range.prefix)).sort(byBytes);
      return rangeOf<T>(values, sorted, range, (v) => v);
    },
    async write(ops: ModelOp[]) {
      for (const op of ops)
        if (op.type === 'put') values.set(op.key, op.value);
        else values.delete(op.key);
    },
    async clear(prefix: string) {
      for (const key of values.keys()) if (key.startsWith(prefix)) values.delete(key);
    },
  };
  return {
    store,
    /** the values as they are now, frozen: a copy of the map */
    keep: () => {
      const frozen: ReadonlyMap<string, unknown> = new Map(values);
      return { values: frozen, store: frozenStore(frozen) };
    },
  };
};
export type KeptValues = ReturnType<ReturnType<typeof valueModels>['keep']>;
