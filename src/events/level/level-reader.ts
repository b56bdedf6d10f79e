import type { ProjectHead } from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { decode } from '../codec.js';
import { GENESIS_HASH, type LogEvent, type StoredRecord } from '../envelope.js';
import { toLogEvent, type KeyLookup } from '../record-view.js';
import { Keys, readBe64 } from './keys.js';
import { getNow, type LevelDb } from './level-db.js';
import { assertContiguous } from './level-tail.js';

/**
 * Reads of the LevelDB keyspace. Content keys are cached per process (null once shredded), so
 * opening sealed content costs one lookup per subject, not per event.
 */
export const levelReader = (db: LevelDb, catalog: Catalog) => {
  const contentKeys = new Map<string, Uint8Array | null>();
  // bumped by forgetKey: a lookup that began before a shred must not cache the destroyed key
  let shreds = 0;

  const loadKeys = async (subjects: Iterable<string>): Promise<Map<string, Uint8Array | null>> => {
    const wanted = new Set<string>();
    for (const subject of subjects) if (!contentKeys.has(subject)) wanted.add(subject);
    if (wanted.size === 0) return contentKeys;
    const missing = [...wanted];
    const before = shreds;
    const keys = await db.getMany(missing.map(Keys.key));
    const into = before === shreds ? contentKeys : new Map(contentKeys);
    missing.forEach((subject, i) => into.set(subject, keys[i] ?? null));
    return into;
  };

  const subjectsOf = function* (records: StoredRecord[]) {
    for (const r of records) if (r.sealed) yield r.sealed.subject;
  };

  const view = async (records: StoredRecord[]): Promise<LogEvent[]> => {
    const keys = await loadKeys(subjectsOf(records));
    return records.map((r) => toLogEvent(r, catalog, (s) => keys.get(s) ?? undefined));
  };

  const recordsAt = async (positions: number[]): Promise<StoredRecord[]> => {
    const values = await db.getMany(positions.map(Keys.global));
    return values.map((v, i) => {
      if (!v) throw new Error(`index points at missing event ${positions[i]}`);
      return decode<StoredRecord>(v);
    });
  };

  const positions = async (range: object, limit: number): Promise<number[]> =>
    (await db.values({ ...range, limit }).all()).map((v) => readBe64(v));

  /** The last key of a range, if any. */
  const lastKey = async (range: object): Promise<Buffer | undefined> =>
    (await db.keys({ ...range, reverse: true, limit: 1 }).all())[0];

  // positions are gap-free by design: a gap is proof of loss, never skipped over in silence
  const readRaw = async (after: number, limit: number): Promise<StoredRecord[]> =>
    assertContiguous(
      db,
      after,
      (await db.values({ ...Keys.globalRange(after), limit }).all()).map((v) =>
        decode<StoredRecord>(v),
      ),
    );

  return {
    /** a key a committed group wrote */
    rememberKey: (subject: string, key: Uint8Array) => void contentKeys.set(subject, key),
    forgetKey: (subject: string) => {
      shreds++;
      contentKeys.set(subject, null);
    },
    /** how many keys forgetKey destroyed: moves with every shred */
    shreds: () => shreds,
    view,
    /** the content keys of these subjects (undefined once shredded), looked up once each */
    keysOf: async (subjects: Iterable<string>): Promise<KeyLookup> => {
      const keys = await loadKeys(subjects);
      return (subject) => keys.get(subject) ?? undefined;
    },
    readRaw,
    readAll: async (after: number, limit: number) => view(await readRaw(after, limit)),
    readProject: async (projectId: string, after: number, limit: number) =>
      view(await recordsAt(await positions(Keys.projectRange(projectId, after), limit))),
    readStream: async (name: string, from: number, to: number) =>
      view(await recordsAt(await positions(Keys.streamRange(name, from, to), -1))),
    /** The version of a stream's last event: the key of its last index entry. */
    streamVersion: async (name: string): Promise<number> => {
      // An uncached stream is most often a new one (a create). Versions start at 1 and index
      // entries are never deleted, so a missing first entry answers without an iterator, which
      // costs a thread-pool round trip and a seek (a tenth of a record_decision's CPU).
      if ((await getNow(db, Keys.stream(name, 1))) === undefined) return 0;
      const last = await lastKey(Keys.streamRange(name));
      return last ? readBe64(last, last.length - 8) : 0;
    },
    /** A project's chain head: the cursor and hash of its last event. */
    projectHead: async (projectId: string): Promise<ProjectHead> => {
      const [at] = await positions({ ...Keys.projectRange(projectId, 0), reverse: true }, 1);
      if (at === undefined) return { cursor: 0, hash: GENESIS_HASH };
      const [last] = await recordsAt([at]);
      return { cursor: last!.cursor, hash: last!.hash };
    },
    head: async (): Promise<number> => {
      const last = await lastKey(Keys.globalRange(0));
      return last ? readBe64(last, 1) : 0;
    },
  };
};

export type LevelReader = ReturnType<typeof levelReader>;
