import type pg from 'pg';
import { encode } from '../codec.js';
import type { Staged } from './pg-stage.js';

/**
 * One statement writes a whole group: the events, the stream and project heads it reached, its
 * idempotency and appendId records and new content keys; then it moves the log head and sends
 * the NOTIFY (delivered at commit). Arrays through `unnest` keep it one round trip whatever the
 * group's size.
 */
const groupSql = (s: string): string =>
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
     INSERT INTO ${s}.idempotency (scope, fingerprint, response, position, sealed)
     SELECT * FROM unnest($15::text[], $16::text[], $17::bytea[], $18::bigint[], $29::bytea[])
   ), ap AS (
     INSERT INTO ${s}.appends (append_id, next_version, created_new, last_position, last_cursor,
       result)
     SELECT * FROM unnest($19::text[], $20::bigint[], $21::boolean[], $22::bigint[], $23::bigint[],
       $30::bytea[])
   ), ky AS (
     INSERT INTO ${s}.content_keys (subject, key) SELECT * FROM unnest($24::text[], $25::bytea[])
   ), hd AS (
     UPDATE ${s}.log_head SET position = $26, writes = writes + 1
   )
   SELECT pg_notify($27, $28)`;

const groupParams = (staged: Staged, channel: string): unknown[] => {
  const r = staged.records;
  const streams = [...staged.touchedStreams];
  const projects = [...staged.touchedProjects];
  const idem = [...staged.newIdempotency];
  const appends = [...staged.newAppends];
  const keys = [...staged.newKeys];
  return [
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
    idem.map(([, v]) => encode(v.sealed ? null : (v.response ?? null))),
    idem.map(([, v]) => v.position),
    appends.map(([id]) => id),
    appends.map(([, v]) => (v.streams[0]?.nextExpectedStreamVersion ?? 0n).toString()),
    appends.map(([, v]) => v.streams[0]?.createdNewStream ?? false),
    appends.map(([, v]) => v.lastEventGlobalPosition.toString()),
    appends.map(([, v]) => v.lastCursor),
    keys.map(([subject]) => subject),
    keys.map(([, key]) => Buffer.from(key)),
    staged.global,
    channel,
    String(staged.global),
    idem.map(([, v]) => (v.sealed ? encode({ sealed: v.sealed, subjects: v.subjects }) : null)),
    appends.map(([, v]) => encode(v)),
  ];
};

export const writeGroup = async (
  client: pg.ClientBase,
  s: string,
  channel: string,
  staged: Staged,
): Promise<void> => {
  await client.query(groupSql(s), groupParams(staged, channel));
};
