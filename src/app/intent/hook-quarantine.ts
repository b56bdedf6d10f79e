import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs } from '../../events/make-dirs.js';
import { hooksDir, namesIn, writeDurably } from './hook-view-file.js';
import { removeSpooled, tagOf, type Refusal } from './hook-spool.js';

/**
 * Spool entries the writer would not fold (issue 40): a file that is no record (a FIFO, a
 * link, a directory), one over the size bound, one that is not a well-formed record, or one
 * whose fold failed again and again. Each leaves the spool, so the records after it are folded
 * in order, and leaves a note here: its name, why, its length and the SHA-256 of its bytes,
 * never the bytes (as intent-loop keeps a torn record). `intent_status` shows the notes.
 */
export const quarantineDir = (dataDir: string): string => join(hooksDir(dataDir), 'quarantine');

/** The newest notes kept; older ones are removed as new ones come. */
export const QUARANTINE_KEPT = 100;
const NOTE_MAX_BYTES = 4_096;

export type QuarantineNote = Refusal & { record: string; at: string };

/** Moves one spool entry out of the way, with a note of why. */
export const quarantine = (
  dataDir: string,
  name: string,
  refusal: Refusal,
  now: Date = new Date(),
): void => {
  const dir = quarantineDir(dataDir);
  makeDirs(dir, 0o700);
  const note: QuarantineNote = {
    record: name.slice(0, 200),
    ...refusal,
    reason: refusal.reason.slice(0, 300),
    at: now.toISOString(),
  };
  // named by time, then by the entry's name: a name may be as long as a file name can be
  const file = `${String(now.getTime()).padStart(15, '0')}-${tagOf(name)}.json`;
  writeDurably(join(dir, file), JSON.stringify(note));
  removeSpooled(dataDir, name);
  const notes = noteNames(dataDir);
  for (const old of notes.slice(0, Math.max(0, notes.length - QUARANTINE_KEPT)))
    rmSync(join(dir, old), { force: true });
};

const noteNames = (dataDir: string) =>
  namesIn(quarantineDir(dataDir))
    .filter((n) => n.endsWith('.json'))
    .sort();

const readNote = (path: string): QuarantineNote | undefined => {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > NOTE_MAX_BYTES) return undefined;
    const note = JSON.parse(readFileSync(path, 'utf8')) as QuarantineNote;
    return typeof note.record === 'string' && typeof note.reason === 'string' ? note : undefined;
  } catch {
    return undefined;
  }
};

/** What intent_status shows: how many notes there are, and the newest few. */
export const quarantined = (
  dataDir: string,
  newest = 5,
): { quarantined: number; recent: { record: string; reason: string; at: string }[] } => {
  const names = noteNames(dataDir);
  const recent = names
    .slice(-newest)
    .map((n) => readNote(join(quarantineDir(dataDir), n)))
    .filter((n): n is QuarantineNote => n !== undefined)
    .map(({ record, reason, at }) => ({ record, reason, at }));
  return { quarantined: names.length, recent };
};
