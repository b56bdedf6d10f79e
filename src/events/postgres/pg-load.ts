import type pg from 'pg';
import type { ProjectHead } from '../append-plan.js';
import { decode, encode } from '../codec.js';
import type { IdempotencyRecord, LogAppendResult } from '../event-log.js';
import type { Loaded, PendingAppend, Staged } from './pg-stage.js';
import { lookupsOf } from './pg-stage.js';

type Row = Record<string, unknown>;

const select = async (client: pg.ClientBase, sql: string, values: string[]): Promise<Row[]> =>
  values.length === 0 ? [] : (await client.query(sql, [values])).rows;

/**
 * Reads, inside the append transaction and after its head lock, every head and record the
 * group's appends depend on: one query per kind for the whole group.
 */
export const loadForGroup = async (
  client: pg.ClientBase,
  s: string,
  group: readonly PendingAppend[],
): Promise<Loaded> => {
  const need = lookupsOf(group);
  const head = await client.query<{ position: string }>(
    `SELECT position FROM ${s}.log_head FOR UPDATE`,
  );
  const [streams, projects, idempotency, appends, keys] = [
    await select(
      client,
      `SELECT stream_name, version FROM ${s}.streams WHERE stream_name = ANY($1)`,
      need.streams,
    ),
    await select(
      client,
      `SELECT project_id, cursor, hash FROM ${s}.projects WHERE project_id = ANY($1)`,
      need.projects,
    ),
    await select(
      client,
      `SELECT scope, fingerprint, response, position FROM ${s}.idempotency WHERE scope = ANY($1)`,
      need.scopes,
    ),
    await select(client, `SELECT * FROM ${s}.appends WHERE append_id = ANY($1)`, need.appendIds),
    await select(
      client,
      `SELECT subject, key FROM ${s}.content_keys WHERE subject = ANY($1)`,
      need.subjects,
    ),
  ];
  return {
    global: Number(head.rows[0]!.position),
    streams: new Map(streams.map((r) => [String(r.stream_name), Number(r.version)])),
    projects: new Map(
      projects.map((r): [string, ProjectHead] => [
        String(r.project_id),
        { cursor: Number(r.cursor), hash: String(r.hash) },
      ]),
    ),
    idempotency: new Map(
      idempotency.map((r): [string, IdempotencyRecord] => [
        String(r.scope),
        {
          fingerprint: String(r.fingerprint),
          response: decode(r.response as Buffer),
          position: Number(r.position),
        },
      ]),
    ),
    appends: new Map(
      appends.map((r): [string, LogAppendResult] => [
        String(r.append_id),
        {
          nextExpectedStreamVersion: BigInt(r.next_version as string),
          createdNewStream: Boolean(r.created_new),
          lastEventGlobalPosition: BigInt(r.last_position as string),
          lastCursor: Number(r.last_cursor),
        },
      ]),
    ),
    keys: new Map(keys.map((r) => [String(r.subject), r.key as Buffer])),
  };
};

/** Writes everything a group staged in one statement, then moves the head and announces it. */
export const writeGroup = async (
  client: pg.ClientBase,
  s: string,
  channel: string,
  staged: Staged,
): Promise<void> => {
  const r = staged.records;
  const streams = [...staged.touchedStreams];
  const projects = [...staged.touchedProjects];
  const idem = [...staged.newIdempotency];
  const appends = [...staged.newAppends];
  const keys = [...staged.newKeys];
  await client.query(
    `WITH ev AS (
       INSERT INTO ${s}.events (global_position, project_id, cursor, stream_name, stream_version,
         event_id, type, seal_subject, record)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bigint[],
         $6::text[], $7::text[], $8::text[], $9::bytea[])
     ), st AS (
       INSERT INTO ${s}.streams (stream_name, version)
       SELECT * FROM unnest($10::text[], $11::bigint[])
       ON CONFLICT (stream_name) DO UPDATE SET version = EXCLUDED.version
     ), pr AS (
       INSERT INTO ${s}.projects (project_id, cursor, hash)
       SELECT * FROM unnest($12::text[], $13::bigint[], $14::text[])
       ON CONFLICT (project_id) DO UPDATE SET cursor = EXCLUDED.cursor, hash = EXCLUDED.hash
     ), idem AS (
       INSERT INTO ${s}.idempotency (scope, fingerprint, response, position)
       SELECT * FROM unnest($15::text[], $16::text[], $17::bytea[], $18::bigint[])
     ), ap AS (
       INSERT INTO ${s}.appends (append_id, next_version, created_new, last_position, last_cursor)
       SELECT * FROM unnest($19::text[], $20::bigint[], $21::boolean[], $22::bigint[], $23::bigint[])
     ), ky AS (
       INSERT INTO ${s}.content_keys (subject, key) SELECT * FROM unnest($24::text[], $25::bytea[])
     ), hd AS (
       UPDATE ${s}.log_head SET position = $26
     )
     SELECT pg_notify($27, $28)`,
    [
      r.map((e) => e.global_position),
      r.map((e) => e.project_id),
      r.map((e) => e.cursor),
      r.map((e) => e.stream_name),
      r.map((e) => e.stream_version),
      r.map((e) => e.event_id),
      r.map((e) => e.type),
      r.map((e) => e.sealed?.subject ?? null),
      r.map((e) => encode(e)),
      streams,
      streams.map((n) => staged.streams.get(n)!),
      projects,
      projects.map((p) => staged.projects.get(p)!.cursor),
      projects.map((p) => staged.projects.get(p)!.hash),
      idem.map(([scope]) => scope),
      idem.map(([, v]) => v.fingerprint),
      idem.map(([, v]) => encode(v.response)),
      idem.map(([, v]) => v.position),
      appends.map(([id]) => id),
      appends.map(([, v]) => v.nextExpectedStreamVersion.toString()),
      appends.map(([, v]) => v.createdNewStream),
      appends.map(([, v]) => v.lastEventGlobalPosition.toString()),
      appends.map(([, v]) => v.lastCursor),
      keys.map(([subject]) => subject),
      keys.map(([, key]) => Buffer.from(key)),
      staged.global,
      channel,
      String(staged.global),
    ],
  );
};
