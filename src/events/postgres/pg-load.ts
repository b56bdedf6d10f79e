import type pg from 'pg';
import { decode } from '../codec.js';
import { storedAppendResult, type MultiAppendResult } from '../event-log.js';
import type { StoredIdempotency } from '../idempotency-store.js';
import type { Loaded, PendingAppend } from './pg-stage.js';
import { lookupsOf } from './pg-stage.js';

type LookupRow = {
  kind: 'h' | 's' | 'p' | 'i' | 'a' | 'k';
  id: string | null;
  n1: string | null;
  n2: string | null;
  n3: string | null;
  t1: string | null;
  b1: Buffer | null;
  b2: Buffer | null;
  flag: boolean | null;
};

/**
 * Reads the log head and every head and record the group's appends depend on, in one
 * statement (so one snapshot and one round trip). Run before the head lock it is a guess that
 * holds if the head has not moved by the time the lock is taken; run after it, it is the truth.
 */
export const loadForGroup = async (
  client: pg.ClientBase,
  s: string,
  group: readonly PendingAppend[],
): Promise<Loaded> => {
  const need = lookupsOf(group);
  const { rows } = await client.query<LookupRow>(
    `SELECT 'h' AS kind, NULL AS id, position AS n1, shreds AS n2, writes AS n3,
       NULL AS t1, NULL::bytea AS b1, NULL::bytea AS b2, NULL::boolean AS flag FROM ${s}.log_head
     UNION ALL SELECT 's', stream_name, version, NULL, NULL, NULL, NULL, NULL, NULL
       FROM ${s}.streams WHERE stream_name = ANY($1)
     UNION ALL SELECT 'p', project_id, cursor, NULL, NULL, hash, NULL, NULL, NULL
       FROM ${s}.projects WHERE project_id = ANY($2)
     UNION ALL SELECT 'i', scope, position, NULL, NULL, fingerprint, response, sealed, NULL
       FROM ${s}.idempotency WHERE scope = ANY($3)
     UNION ALL SELECT 'a', append_id, next_version, last_position, last_cursor, NULL, result, NULL,
       created_new FROM ${s}.appends WHERE append_id = ANY($4)
     UNION ALL SELECT 'k', subject, NULL, NULL, NULL, NULL, key, NULL, NULL
       FROM ${s}.content_keys WHERE subject = ANY($5)`,
    [need.streams, need.projects, need.scopes, need.appendIds, need.subjects],
  );
  const loaded: Loaded = {
    head: '',
    global: 0,
    streams: new Map(),
    projects: new Map(),
    idempotency: new Map(),
    appends: new Map(),
    keys: new Map(),
  };
  for (const row of rows) addRow(loaded, row);
  return loaded;
};

const addRow = (loaded: Loaded, row: LookupRow): void => {
  const id = row.id ?? '';
  const n1 = Number(row.n1);
  switch (row.kind) {
    case 'h':
      loaded.global = n1;
      loaded.head = `${row.n1}/${row.n2}/${row.n3}`;
      return;
    case 's':
      loaded.streams.set(id, n1);
      return;
    case 'p':
      loaded.projects.set(id, { cursor: n1, hash: row.t1! });
      return;
    case 'i':
      loaded.idempotency.set(id, storedIdempotencyRow(row.t1!, n1, row.b1!, row.b2));
      return;
    case 'a':
      loaded.appends.set(
        id,
        row.b1
          ? decode<MultiAppendResult>(row.b1)
          : storedAppendResult({
              nextExpectedStreamVersion: BigInt(row.n1!),
              createdNewStream: row.flag === true,
              lastEventGlobalPosition: BigInt(row.n2!),
              lastCursor: Number(row.n3),
            }),
      );
      return;
    case 'k':
      loaded.keys.set(id, row.b1!);
  }
};

/**
 * Opens the transaction and takes the log's head lock; answers the head as `Loaded.head` spells
 * it (position, shred and write counts: a shred changes no position but does change content
 * keys; an append of no events writes an idempotency record and no position).
 */
export const lockHead = async (client: pg.ClientBase, s: string): Promise<string> => {
  // One round trip: a parameterless multi-statement query runs in the simple protocol.
  const results = (await client.query(
    `BEGIN; SELECT position, shreds, writes FROM ${s}.log_head FOR UPDATE`,
  )) as unknown as pg.QueryResult<{ position: string; shreds: string; writes: string }>[];
  const row = results[1]!.rows[0]!;
  return `${row.position}/${row.shreds}/${row.writes}`;
};

/** An idempotency row: its response in plain, or sealed (then `sealed` holds it). */
export const storedIdempotencyRow = (
  fingerprint: string,
  position: number,
  response: Buffer,
  sealed: Buffer | null,
): StoredIdempotency =>
  sealed
    ? { fingerprint, position, ...decode<Pick<StoredIdempotency, 'sealed' | 'subjects'>>(sealed) }
    : { fingerprint, position, response: decode(response) };
