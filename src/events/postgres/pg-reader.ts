import type pg from 'pg';
import type { Catalog } from '../catalog/catalog.js';
import { decode } from '../codec.js';
import type { LogEvent, StoredRecord } from '../envelope.js';
import type { StoredIdempotency } from '../idempotency-store.js';
import { toLogEvent } from '../record-view.js';
import { storedIdempotencyRow } from './pg-load.js';

type EventRow = { record: Buffer; key: Buffer | null };

/**
 * Reads of the PostgreSQL log. Each read is one statement, so it sees one snapshot; content
 * keys are joined in rather than cached, so a shred by any instance shows on every instance at
 * once. Global positions are gapless in commit order (see pg-group-commit.ts), so paging by
 * position or cursor never skips or repeats an event.
 */
export const pgReader = (pool: pg.Pool, schema: string, catalog: Catalog) => {
  const s = `"${schema}"`;
  const withKeys = `SELECT e.record, k.key FROM ${s}.events e
    LEFT JOIN ${s}.content_keys k ON k.subject = e.seal_subject`;

  const view = (rows: EventRow[]): LogEvent[] =>
    rows.map((row) =>
      toLogEvent(decode<StoredRecord>(row.record), catalog, () => row.key ?? undefined),
    );

  const events = async (sql: string, params: unknown[]): Promise<LogEvent[]> =>
    view((await pool.query<EventRow>(sql, params)).rows);

  return {
    view,
    readAll: (after: number, limit: number) =>
      events(`${withKeys} WHERE e.global_position > $1 ORDER BY e.global_position LIMIT $2`, [
        after,
        limit,
      ]),
    readProject: (projectId: string, after: number, limit: number) =>
      events(`${withKeys} WHERE e.project_id = $1 AND e.cursor > $2 ORDER BY e.cursor LIMIT $3`, [
        projectId,
        after,
        limit,
      ]),
    readRaw: async (after: number, limit: number): Promise<StoredRecord[]> => {
      const { rows } = await pool.query<{ record: Buffer }>(
        `SELECT record FROM ${s}.events WHERE global_position > $1
         ORDER BY global_position LIMIT $2`,
        [after, limit],
      );
      return rows.map((r) => decode<StoredRecord>(r.record));
    },
    /**
     * The stream's current version and its events from..to, in one snapshot, with the log's
     * shred count (a fold kept across reads is good only while no shred happened).
     */
    readStream: async (name: string, from: number, to: number) => {
      const { rows } = await pool.query<
        { version: string | null; shreds: string } & Partial<EventRow>
      >(
        `SELECT h.shreds, st.version, e.record, k.key FROM ${s}.log_head h
         LEFT JOIN ${s}.streams st ON st.stream_name = $1
         LEFT JOIN ${s}.events e ON e.stream_name = st.stream_name
           AND e.stream_version BETWEEN $2 AND $3
         LEFT JOIN ${s}.content_keys k ON k.subject = e.seal_subject
         ORDER BY e.stream_version`,
        [name, from, to],
      );
      const read = rows.flatMap((r) =>
        r.record ? [{ record: r.record, key: r.key ?? null }] : [],
      );
      return {
        version: Number(rows[0]?.version ?? 0),
        shreds: rows[0]?.shreds ?? '0',
        events: view(read),
      };
    },
    streamExists: async (name: string): Promise<boolean> =>
      (await pool.query(`SELECT 1 FROM ${s}.streams WHERE stream_name = $1`, [name])).rowCount ===
      1,
    head: async (): Promise<number> => {
      const { rows } = await pool.query<{ position: string }>(`SELECT position FROM ${s}.log_head`);
      return Number(rows[0]?.position ?? 0);
    },
    idempotency: async (scope: string): Promise<StoredIdempotency | undefined> => {
      const { rows } = await pool.query<{
        fingerprint: string;
        response: Buffer;
        sealed: Buffer | null;
        position: string;
      }>(`SELECT fingerprint, response, sealed, position FROM ${s}.idempotency WHERE scope = $1`, [
        scope,
      ]);
      const row = rows[0];
      if (!row) return undefined;
      return storedIdempotencyRow(row.fingerprint, Number(row.position), row.response, row.sealed);
    },
  };
};

export type PgReader = ReturnType<typeof pgReader>;
