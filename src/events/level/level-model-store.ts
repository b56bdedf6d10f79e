import type { AbstractSnapshot } from 'abstract-level';
import { decode, encode } from '../codec.js';
import type { SealedContent } from '../envelope.js';
import type { ModelOp, ModelRange, ModelStore } from '../model-store.js';
import { openSealed, type KeyLookup } from '../record-view.js';
import { seal } from '../sealing.js';
import { Keys } from './keys.js';
import { getNow, type LevelDb } from './level-db.js';

const PREFIX_LENGTH = 1;

/** A model store with no content keys: a sealed value is never stored. */
const noKeys: ModelKeys = async () => () => undefined;

/** The content keys of subjects, wherever the log keeps them (undefined once shredded). */
export type ModelKeys = (subjects: Iterable<string>) => Promise<KeyLookup>;

/**
 * A sealed value is marked by a first byte msgpack never uses (0xc1), so a plain value, stored
 * as msgpack, can never be taken for one.
 */
const SEALED = 0xc1;

const sealValue = (subject: string, key: Uint8Array, value: unknown): Buffer =>
  Buffer.concat([Buffer.of(SEALED), encode(seal(subject, key, { value }))]);

const isSealed = (stored: Buffer): boolean => stored[0] === SEALED;
const sealedOf = (stored: Buffer): SealedContent => decode(stored.subarray(1));

/**
 * Read models in a level database, under their own prefix: the log's own database (LevelDB), or
 * an instance's memory (PostgreSQL). Values put with `seal` are stored sealed under the subject's
 * content key, looked up with `keys` (with none, a sealed value is not stored at all).
 */
export const levelModelStore = (
  db: LevelDb,
  keys: ModelKeys = noKeys,
  /** reads see this snapshot of `db` (a past state kept while the database moves on) */
  snapshot?: AbstractSnapshot,
  /** the count of content keys destroyed, where every shred is seen (ModelStore.keyGeneration) */
  keyGeneration?: () => number,
): ModelStore => {
  const read = snapshot ? { snapshot } : {};
  /** Values as readers get them: sealed ones opened, undefined once their key is gone. */
  const values = async <T>(stored: (Buffer | undefined)[]): Promise<(T | undefined)[]> => {
    const subjects = stored.flatMap((b) => (b && isSealed(b) ? [sealedOf(b).subject] : []));
    const keyOf = subjects.length > 0 ? await keys(subjects) : undefined;
    return stored.map((b) => {
      if (b === undefined) return undefined;
      if (!isSealed(b)) return decode<T>(b);
      const sealed = sealedOf(b);
      return openSealed(sealed, keyOf!(sealed.subject))?.value as T | undefined;
    });
  };

  return {
    async get<T>(key: string) {
      return (await values<T>([await getNow(db, Keys.model(key), read)]))[0];
    },
    async getMany<T>(keys: string[]) {
      return values<T>(await db.getMany(keys.map(Keys.model), read));
    },
    async range<T>({ prefix, limit, reverse }: ModelRange) {
      const entries = await db
        .iterator({
          ...read,
          ...Keys.modelPrefix(prefix),
          limit: limit ?? -1,
          reverse: reverse ?? false,
        })
        .all();
      const opened = await values<T>(entries.map(([, v]) => v));
      return entries.flatMap(([k], i): [string, T][] =>
        opened[i] === undefined ? [] : [[k.subarray(PREFIX_LENGTH).toString(), opened[i]]],
      );
    },
    async write(ops: ModelOp[]) {
      const subjects = ops.flatMap((op) => (op.type === 'put' && op.seal ? [op.seal] : []));
      const keyOf = subjects.length > 0 ? await keys(subjects) : undefined;
      const batch = db.batch();
      for (const op of ops) {
        if (op.type === 'del') batch.del(Keys.model(op.key));
        else if (!op.seal) batch.put(Keys.model(op.key), encode(op.value));
        else {
          // no key (shredded, or never created): the value is not stored, in any form
          const key = keyOf!(op.seal);
          if (key) batch.put(Keys.model(op.key), sealValue(op.seal, key, op.value));
          else batch.del(Keys.model(op.key));
        }
      }
      await batch.write();
    },
    async clear(prefix: string) {
      await db.clear(Keys.modelPrefix(prefix));
    },
    ...(keyGeneration ? { keyGeneration } : {}),
  };
};
