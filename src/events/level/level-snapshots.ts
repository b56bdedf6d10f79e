import { decode, encode } from '../codec.js';
import { newSubjectKey } from '../sealing.js';
import type { SnapshotInfo, SnapshotStore, StoredSnapshot } from '../snapshots/snapshot-store.js';
import { Keys } from './keys.js';
import { compact, getNow, type LevelDb } from './level-db.js';

type Row = Omit<StoredSnapshot, 'name' | 'stream'>;

/**
 * Snapshots in the log's own database, under a prefix of their own (keys.ts): one row per fold
 * and stream, and the key sealed ones are encrypted under. Not synced: a snapshot lost in a
 * crash is folded again. `clear` deletes the prefix and compacts it, so the bytes of a sealed
 * state and of its key leave the disk as a shredded content key does.
 */
export const levelSnapshots = (db: LevelDb): SnapshotStore => {
  let key: Buffer | undefined;
  return {
    async get(name, stream) {
      const bytes = await getNow(db, Keys.snapshot(name, stream));
      return bytes && { name, stream, ...decode<Row>(bytes) };
    },
    async put({ name, stream, ...row }) {
      const at = Keys.snapshot(name, stream);
      const kept = await getNow(db, at);
      const older = kept && decode<Row>(kept);
      if (older && older.at > row.at && older.version === row.version) return;
      await db.put(at, encode(row));
    },
    async key(create) {
      key ??= await getNow(db, Keys.snapshotKey());
      if (key || !create) return key;
      key = newSubjectKey();
      // not synced either: a key lost in a crash leaves snapshots no one can open, folded again
      await db.put(Keys.snapshotKey(), key);
      return key;
    },
    async clear() {
      key = undefined;
      const range = Keys.snapshotRange();
      await db.clear(range);
      await compact(db, range.gte, range.lt);
    },
    async list() {
      const out: SnapshotInfo[] = [];
      for await (const [k, v] of db.iterator(Keys.snapshotRange())) {
        if (k.length === 1) continue;
        const [name, stream] = k.subarray(1).toString().split('\u0000') as [string, string];
        const { at, version, sealed, body } = decode<Row>(v);
        out.push({ name, stream, at, version, sealed, bytes: body.byteLength });
      }
      return out;
    },
    async count() {
      let n = 0;
      for await (const k of db.keys(Keys.snapshotRange())) if (k.length > 1) n++;
      return n;
    },
  };
};
