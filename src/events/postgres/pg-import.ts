import type pg from 'pg';
import type { StoredRecord } from '../envelope.js';
import { checkImport, newKeysOf, sealedSubjects, type ImportHeads } from '../record-import.js';
import { lockHead } from './pg-load.js';
import type { Staged } from './pg-stage.js';
import { writeGroup } from './pg-write.js';

/** The content keys the log holds for the subjects (absent: shredded or never sealed). */
export const pgContentKeys = async (
  db: pg.Pool | pg.ClientBase,
  s: string,
  subjects: readonly string[],
): Promise<Map<string, Uint8Array>> => {
  if (subjects.length === 0) return new Map();
  const { rows } = await db.query<{ subject: string; key: Buffer }>(
    `SELECT subject, key FROM ${s}.content_keys WHERE subject = ANY($1)`,
    [subjects],
  );
  return new Map(rows.map((r) => [r.subject, r.key]));
};

const headsFor = async (
  client: pg.ClientBase,
  s: string,
  global: number,
  records: readonly StoredRecord[],
): Promise<ImportHeads> => {
  const streams = [...new Set(records.map((r) => r.stream_name))];
  const projects = [...new Set(records.map((r) => r.project_id))];
  const st = await client.query<{ stream_name: string; version: string }>(
    `SELECT stream_name, version FROM ${s}.streams WHERE stream_name = ANY($1)`,
    [streams],
  );
  const pr = await client.query<{ project_id: string; cursor: string; hash: string }>(
    `SELECT project_id, cursor, hash FROM ${s}.projects WHERE project_id = ANY($1)`,
    [projects],
  );
  return {
    global,
    streams: new Map(st.rows.map((r) => [r.stream_name, Number(r.version)])),
    projects: new Map(
      pr.rows.map((r) => [r.project_id, { cursor: Number(r.cursor), hash: r.hash }]),
    ),
  };
};

/** The group write of pg-write.ts, for records that are already planned. */
const asStaged = (
  heads: ImportHeads,
  records: readonly StoredRecord[],
  newKeys: Map<string, Uint8Array>,
): Staged => ({
  head: '',
  global: heads.global,
  streams: heads.streams,
  projects: heads.projects,
  idempotency: new Map(),
  appends: new Map(),
  keys: new Map(),
  records: [...records],
  newIdempotency: new Map(),
  newAppends: new Map(),
  newKeys,
  touchedStreams: new Set(records.map((r) => r.stream_name)),
  touchedProjects: new Set(records.map((r) => r.project_id)),
});

/**
 * Writes records as they are in one transaction under the log's head lock (so appends of every
 * instance wait, and see the records' heads once it commits), with the content keys they need.
 */
export const pgImport = async (
  pool: pg.Pool,
  s: string,
  channel: string,
  records: readonly StoredRecord[],
  keys: ReadonlyMap<string, Uint8Array>,
): Promise<void> => {
  if (records.length === 0) return;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const [position] = (await lockHead(client, s)).split('/');
    const heads = await headsFor(client, s, Number(position), records);
    checkImport(heads, records);
    const wanted = sealedSubjects(records).filter((subject) => keys.has(subject));
    const fresh = newKeysOf(
      new Map(wanted.map((subject) => [subject, keys.get(subject)!])),
      await pgContentKeys(client, s, wanted),
    );
    await writeGroup(client, s, channel, asStaged(heads, records, fresh));
    await client.query('COMMIT');
  } catch (error) {
    // a connection that cannot even roll back is not given back to the pool
    await client.query('ROLLBACK').catch((lost: Error) => (broken = lost));
    throw error;
  } finally {
    client.release(broken);
  }
};
