import type { ModelOp, ModelStore } from '../events/index.js';
import { modelPrefix, type ModelTx } from './projector.js';

/**
 * The writes of one engine batch across all projectors, with an overlay so a projector reads
 * its own uncommitted writes. Committed with the checkpoints in one ModelStore write.
 */
export const modelBatch = (store: ModelStore) => {
  const overlay = new Map<string, ModelOp>();
  const txFor = (name: string): ModelTx => {
    const prefix = modelPrefix(name);
    return {
      async get<T>(key: string) {
        const op = overlay.get(prefix + key);
        if (op) return op.type === 'put' ? (op.value as T) : undefined;
        return store.get<T>(prefix + key);
      },
      put: (key, value) =>
        void overlay.set(prefix + key, { type: 'put', key: prefix + key, value }),
      del: (key) => void overlay.set(prefix + key, { type: 'del', key: prefix + key }),
    };
  };
  return {
    txFor,
    ops: (): ModelOp[] => [...overlay.values()],
  };
};
