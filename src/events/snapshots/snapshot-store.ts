/**
 * A persisted snapshot as a store keeps it: the fold it was made by (`name`, evolve `version`),
 * the stream and the version folded to (`at`), what else the store checks before use (`tag`:
 * PostgreSQL's shred count), and the state's bytes (StateCodec), encrypted when the fold saw
 * sealed content (`sealed`).
 */
export type StoredSnapshot = {
  name: string;
  stream: string;
  at: number;
  version: number;
  tag?: string;
  sealed: boolean;
  body: Uint8Array;
};

export type SnapshotInfo = Omit<StoredSnapshot, 'body' | 'tag'> & { bytes: number };

/**
 * Where a store keeps snapshots (LevelDB and memory: a keyspace of the log's database;
 * PostgreSQL: tables of its schema). A cache, never truth: `clear` may drop any of them at any
 * time and no answer changes.
 */
export interface SnapshotStore {
  get(name: string, stream: string): Promise<StoredSnapshot | undefined>;
  /** keeps the snapshot unless one of the same fold and stream at a later version is kept */
  put(snapshot: StoredSnapshot): Promise<void>;
  /** the key sealed snapshots are encrypted under; made and kept when `create` and none exists */
  key(create: boolean): Promise<Uint8Array | undefined>;
  /** drops every snapshot and the key (a shred, an import): no sealed state survives it */
  clear(): Promise<void>;
  /** how many snapshots are kept */
  count(): Promise<number>;
  /** what is kept, without the states (tests, an operator's look) */
  list(): Promise<SnapshotInfo[]>;
}
