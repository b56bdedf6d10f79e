/**
 * Key-value storage for read models and their checkpoints. A projector writes its changes and
 * its checkpoint in one `write` so a crash never leaves a model ahead of or behind its position.
 */
export type ModelOp =
  | {
      type: 'put';
      key: string;
      value: unknown;
      /**
       * A subject whose content the value holds: the value is stored encrypted under that
       * subject's content key and reads back opened, or as absent once the subject is shredded
       * (or when it has no key: a value is sealed under a key its sealed events created).
       */
      seal?: string;
    }
  | { type: 'del'; key: string };

export type ModelRange = { prefix: string; limit?: number; reverse?: boolean };

export interface ModelStore {
  get<T>(key: string): Promise<T | undefined>;
  getMany<T>(keys: string[]): Promise<(T | undefined)[]>;
  range<T>(range: ModelRange): Promise<[string, T][]>;
  write(ops: ModelOp[]): Promise<void>;
  /** Deletes every key under a prefix (a projector's keyspace, on rebuild). */
  clear(prefix: string): Promise<void>;
  /**
   * How many content keys have been destroyed (shreds), where the store sees every shred (the
   * LevelDB log: its process is the only writer). While it stands still, a value read or written
   * sealed may be kept opened; once it moves, such a value may be content now destroyed. Absent
   * where others may shred unseen (PostgreSQL, shared by instances).
   */
  readonly keyGeneration?: () => number;
}
