import { encode } from '../codec.js';
import type { StoredRecord } from '../envelope.js';
import { checkImport, newKeysOf, sealedSubjects, type ImportHeads } from '../record-import.js';
import { be64, Keys } from './keys.js';
import type { LevelDb } from './level-db.js';
import type { LevelReader } from './level-reader.js';

/** The content keys this database holds for the subjects (absent: shredded or never sealed). */
export const levelContentKeys = async (
  db: LevelDb,
  subjects: readonly string[],
): Promise<Map<string, Uint8Array>> => {
  const values = await db.getMany(subjects.map(Keys.key));
  const keys = new Map<string, Uint8Array>();
  subjects.forEach((subject, i) => {
    const key = values[i];
    if (key) keys.set(subject, key);
  });
  return keys;
};

const headsFor = async (
  reader: LevelReader,
  global: number,
  records: readonly StoredRecord[],
): Promise<ImportHeads> => {
  const streams = [...new Set(records.map((r) => r.stream_name))];
  const projects = [...new Set(records.map((r) => r.project_id))];
  const heads: ImportHeads = { global, streams: new Map(), projects: new Map() };
  await Promise.all([
    ...streams.map(async (name) => {
      const version = await reader.streamVersion(name);
      if (version > 0) heads.streams.set(name, version);
    }),
    ...projects.map(async (id) => {
      const head = await reader.projectHead(id);
      if (head.cursor > 0) heads.projects.set(id, head);
    }),
  ]);
  return heads;
};

/**
 * Writes records as they are, in one durable batch, with the same keys an append writes (the
 * record, its stream and project index entries) and the content keys they need.
 * Answers the log's new head and the content keys its records now open with. The caller keeps
 * appends out meanwhile (level-event-log.ts).
 */
export const levelImport = async (
  db: LevelDb,
  reader: LevelReader,
  head: number,
  records: readonly StoredRecord[],
  keys: ReadonlyMap<string, Uint8Array>,
): Promise<{ head: number; keys: Map<string, Uint8Array> }> => {
  const heads = await headsFor(reader, head, records);
  checkImport(heads, records);
  const wanted = sealedSubjects(records).filter((s) => keys.has(s));
  const incoming = new Map(wanted.map((s) => [s, keys.get(s)!]));
  const fresh = newKeysOf(incoming, await levelContentKeys(db, wanted));
  const batch = db.batch();
  for (const r of records) {
    const pos = be64(r.global_position);
    batch.put(Keys.global(r.global_position), encode(r));
    batch.put(Keys.stream(r.stream_name, r.stream_version), pos);
    batch.put(Keys.project(r.project_id, r.cursor), pos);
  }
  for (const [subject, key] of fresh) batch.put(Keys.key(subject), Buffer.from(key));
  await batch.write({ sync: true });
  return { head: heads.global, keys: incoming };
};
