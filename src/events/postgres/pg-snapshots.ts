import type pg from 'pg';
import { newSubjectKey } from '../sealing.js';
import type { SnapshotStore } from '../snapshots/snapshot-store.js';

type Row = {
  at: string;
  version: number;
  shreds: string | null;
  sealed: boolean;
  body: Buffer;
};

/** The statements that drop every snapshot and their key: a shred runs them in its transaction. */
export const clearSnapshotsSql = (s: string): string =>
  `DELETE FROM ${s}.snapshots; DELETE FROM ${s}.snapshot_key`;

/**
 * Snapshots in the store's schema (schema.ts, migration 3), shared by every instance. A row is
 * replaced only by a later one of the same evolve version (instances racing keep the newest);
 * the key is read per use, not held, so a shred by another instance is seen at once.
 */
export const pgSnapshots = (pool: pg.Pool, schema: string): SnapshotStore => {
  const s = `"${schema}"`;
  return {
    async get(name, stream) {
      const { rows } = await pool.query<Row>(
        `SELECT at, version, shreds, sealed, body FROM ${s}.snapshots
         WHERE name = $1 AND stream_name = $2`,
        [name, stream],
      );
      const row = rows[0];
      return (
        row && {
          name,
          stream,
          at: Number(row.at),
          version: row.version,
          ...(row.shreds === null ? {} : { tag: row.shreds }),
          sealed: row.sealed,
          body: row.body,
        }
      );
    },
    async put({ name, stream, at, version, tag, sealed, body }) {
      await pool.query(
        `INSERT INTO ${s}.snapshots (name, stream_name, at, version, shreds, sealed, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (name, stream_name) DO UPDATE SET
           at = EXCLUDED.at, version = EXCLUDED.version, shreds = EXCLUDED.shreds,
           sealed = EXCLUDED.sealed, body = EXCLUDED.body
         WHERE ${s}.snapshots.at <= EXCLUDED.at OR ${s}.snapshots.version <> EXCLUDED.version`,
        [name, stream, at, version, tag ?? null, sealed, Buffer.from(body)],
      );
    },
    async key(create) {
      const read = async () =>
        (await pool.query<{ key: Buffer }>(`SELECT key FROM ${s}.snapshot_key`)).rows[0]?.key;
      const key = await read();
      if (key || !create) return key;
      await pool.query(
        `INSERT INTO ${s}.snapshot_key (key) VALUES ($1) ON CONFLICT (id) DO NOTHING`,
        [newSubjectKey()],
      );
      return read();
    },
    async clear() {
      await pool.query(clearSnapshotsSql(s));
      await pool.query(`VACUUM ${s}.snapshots, ${s}.snapshot_key`);
    },
    async list() {
      const { rows } = await pool.query<Row & { name: string; stream_name: string; bytes: number }>(
        `SELECT name, stream_name, at, version, sealed, octet_length(body) AS bytes
         FROM ${s}.snapshots ORDER BY name, stream_name`,
      );
      return rows.map((r) => ({
        name: r.name,
        stream: r.stream_name,
        at: Number(r.at),
        version: r.version,
        sealed: r.sealed,
        bytes: r.bytes,
      }));
    },
    async count() {
      const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.snapshots`);
      return Number(rows[0]!.n);
    },
  };
};
