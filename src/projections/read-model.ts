import type { ModelStore } from '../events/index.js';

/** One value of a read model: its full key (the model's name included) and its type. */
export type ValueRead<V, A extends string[]> = {
  key: (...args: A) => string;
  get: (models: ModelStore, ...args: A) => Promise<V | undefined>;
};

/** Every value under one prefix of a read model, in key order. */
export type RangeRead<V, A extends string[]> = {
  prefix: (...args: A) => string;
  entries: (models: ModelStore, ...args: A) => Promise<[string, V][]>;
  values: (models: ModelStore, ...args: A) => Promise<V[]>;
};

/**
 * Typed reads of one read model, declared beside its projector (`model` is its keyspace, the
 * key builders its own): the one place a stored value is given a type, by the code that wrote
 * it. Readers (src/app, src/mcp, src/web) read through these and build no key of their own.
 * `models` is any model store: the live one, or the web view's as of a past position.
 */
export const readsOf = <V>(model: string) => ({
  value: <A extends string[]>(key: (...args: A) => string): ValueRead<V, A> => {
    const full = (...args: A) => `${model}/${key(...args)}`;
    return { key: full, get: (models, ...args) => models.get<V>(full(...args)) };
  },
  range: <A extends string[]>(prefix: (...args: A) => string): RangeRead<V, A> => {
    const full = (...args: A) => `${model}/${prefix(...args)}`;
    const entries = (models: ModelStore, ...args: A) => models.range<V>({ prefix: full(...args) });
    return {
      prefix: full,
      entries,
      values: async (models, ...args) => (await entries(models, ...args)).map(([, v]) => v),
    };
  },
});
