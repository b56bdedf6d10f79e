import { decode, encode } from '../codec.js';
import type { ModelOp, ModelRange, ModelStore } from '../model-store.js';
import { Keys } from './keys.js';
import type { LevelDb } from './level-db.js';

const PREFIX_LENGTH = 1;

/** Read models in the log's own database, under their own prefix. */
export const levelModelStore = (db: LevelDb): ModelStore => ({
  async get<T>(key: string) {
    const value = await db.get(Keys.model(key));
    return value === undefined ? undefined : decode<T>(value);
  },
  async getMany<T>(keys: string[]) {
    const values = await db.getMany(keys.map(Keys.model));
    return values.map((v) => (v === undefined ? undefined : decode<T>(v)));
  },
  async range<T>({ prefix, limit, reverse }: ModelRange) {
    const entries = await db
      .iterator({ ...Keys.modelPrefix(prefix), limit: limit ?? -1, reverse: reverse ?? false })
      .all();
    return entries.map(([k, v]): [string, T] => [
      k.subarray(PREFIX_LENGTH).toString(),
      decode<T>(v),
    ]);
  },
  async write(ops: ModelOp[]) {
    const batch = db.batch();
    for (const op of ops) {
      if (op.type === 'put') batch.put(Keys.model(op.key), encode(op.value));
      else batch.del(Keys.model(op.key));
    }
    await batch.write();
  },
  async clear(prefix: string) {
    await db.clear(Keys.modelPrefix(prefix));
  },
});
