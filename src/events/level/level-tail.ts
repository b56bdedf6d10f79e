import { decode } from '../codec.js';
import type { StoredRecord } from '../envelope.js';
import { Keys, readBe64 } from './keys.js';
import type { LevelDb } from './level-db.js';
import { CorruptStoreError } from './level-verify.js';

const TAIL = 256;

const lastEntry = async (db: LevelDb, range: object): Promise<[Buffer, Buffer] | undefined> =>
  (await db.iterator({ ...range, reverse: true, limit: 1 }).all())[0];

/**
 * Positions are gap-free by design, so the log's tail is checked at open: the first position is
 * 1, the last TAIL records are contiguous and stored under their own positions, and the newest
 * entry of each of their streams' and projects' indexes is the newest of those records. A store
 * that fails is refused (CorruptStoreError): appending on top would bury the loss.
 */
export const checkLogTail = async (db: LevelDb, location: string): Promise<void> => {
  const problems: string[] = [];
  const first = (await db.keys({ ...Keys.globalRange(0), limit: 1 }).all())[0];
  if (first && readBe64(first, 1) !== 1)
    problems.push(`the log starts at position ${readBe64(first, 1)}, not 1`);
  const tail = await db.iterator({ ...Keys.globalRange(0), reverse: true, limit: TAIL }).all();
  const newestOf = new Map<string, StoredRecord>();
  let expected = tail.length > 0 ? readBe64(tail[0]![0], 1) : 0;
  for (const [key, value] of tail) {
    const position = readBe64(key, 1);
    if (position !== expected) {
      problems.push(`positions ${position + 1}..${expected} are missing`);
      break;
    }
    expected--;
    let record: StoredRecord;
    try {
      record = decode<StoredRecord>(value);
    } catch {
      problems.push(`the record at position ${position} cannot be decoded`);
      continue;
    }
    if (record.global_position !== position)
      problems.push(`the record at position ${position} says ${record.global_position}`);
    for (const index of [`s${record.stream_name}`, `p${record.project_id}`])
      if (!newestOf.has(index)) newestOf.set(index, record);
  }
  for (const [index, record] of newestOf) {
    const stream = index.startsWith('s');
    const range = stream
      ? Keys.streamRange(record.stream_name)
      : Keys.projectRange(record.project_id, 0);
    const entry = await lastEntry(db, range);
    const at = entry && readBe64(entry[1]);
    const ordinal = entry && readBe64(entry[0], entry[0].length - 8);
    const wanted = stream ? record.stream_version : record.cursor;
    if (at !== record.global_position || ordinal !== wanted)
      problems.push(
        `the ${stream ? `stream ${record.stream_name}` : `project ${record.project_id}`} index ` +
          `ends at ${ordinal ?? 'nothing'} (position ${at ?? '-'}), its newest event is ` +
          `${wanted} at position ${record.global_position}`,
      );
  }
  if (problems.length > 0) throw new CorruptStoreError(location, problems);
};

/** Records read after `after` in global order, refused if a position is missing among them. */
export const assertContiguous = (
  db: LevelDb,
  after: number,
  records: StoredRecord[],
): StoredRecord[] => {
  records.forEach((r, i) => {
    if (r.global_position === after + i + 1) return;
    const location = (db as { location?: string }).location ?? 'memory';
    throw new CorruptStoreError(location, [
      `positions ${after + i + 1}..${r.global_position - 1} are missing`,
    ]);
  });
  return records;
};
