export * from './declare.js';
export * from './state-codec.js';
export type { SnapshotInfo, StoredSnapshot, SnapshotStore } from './snapshot-store.js';
export type { SnapshotAccess, SnapshotPolicy } from './snapshot-keeper.js';
