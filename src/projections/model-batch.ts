import type { ModelOp, ModelStore } from '../events/index.js';
import type { ModelCache } from './model-cache.js';
import { modelPrefix, type ModelTx } from './projector.js';

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
        // a shred while the store answers: what it answered may be content now destroyed
        const since = cache?.generation();
        const value = await store.get<T>(prefix + key);
        cache?.set(prefix + key, value, since);
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
