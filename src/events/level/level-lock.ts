import { randomBytes } from 'node:crypto';
import { readlink, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { makeDirs } from '../make-dirs.js';

/**
 * The store's lock is LevelDB's own: an fcntl lock on `<store>/LOCK`. Its holder is the writer.
 * Two properties of fcntl locks shape this module. They belong to the process, and closing ANY
 * descriptor of the file, opened for whatever reason, releases them; so nothing in this process
 * may ever open the LOCK file but LevelDB (data-dir-scan.ts skips it), and nothing may ask
 * LevelDB to open a store this process already holds (its refusal closes a descriptor of the
 * LOCK). And LevelDB takes the lock only inside its open, which also recovers the store and
 * deletes what recovery replaced: the files cannot be checked (level-verify.ts) under the lock
 * by opening the store, and checked without it they vanish under the reader.
 *
 * So the lock is taken first by a small LevelDB of its own beside the store (`.<store>.lock`),
 * whose LOCK is a symbolic link to the store's: the same file, so the same lock. Then the store's
 * files are checked, then the store opens (the same process may lock a file it holds), and the
 * small one closes only after the store has closed. Every other process meets the lock as
 * before: held (LEVEL_LOCKED) by one writer, whatever it holds it with.
 */

/** Where the lock is taken from: `.<name>.lock` beside the store; it holds no data. */
export const lockDirOf = (location: string): string =>
  join(dirname(location), `.${basename(location)}.lock`);

export type StoreLock = {
  /** false where locks are not fcntl's (Windows): the store's files may change meanwhile */
  exclusive: boolean;
  release(): Promise<void>;
};

/** The stores (by real path) this process holds. */
const held = new Set<string>();

const lockedError = (location: string): Error =>
  Object.assign(new Error(`lock ${join(location, 'LOCK')}: already held by this process`), {
    code: 'LEVEL_LOCKED',
  });

/**
 * `.<name>.lock/LOCK` → `../<name>/LOCK`. Anything else there would be a lock of its own: a copy
 * of the data dir may hold a link made absolute (to the original's LOCK: Node's fs.cp does
 * that) or a plain file (a copy that followed links). It is replaced: nothing but this function
 * makes it, and every opener runs it before taking the lock.
 *
 * Processes starting together on a fresh data dir all run this at once. Removing the old entry
 * and then linking is two steps, and another process's removal fell between them (`EEXIST`,
 * then the link gone: issue 40). So the link is made under a name of this process's own and
 * renamed over `LOCK`: a rename replaces atomically, every process renames the same link, and
 * `LOCK` is never missing once it has been made.
 */
export const linkLock = async (dir: string, location: string): Promise<void> => {
  const target = join('..', basename(location), 'LOCK');
  const link = join(dir, 'LOCK');
  const found = await readlink(link).catch(() => undefined);
  if (found === target) return;
  const mine = join(dir, `LOCK.${process.pid}.${randomBytes(6).toString('hex')}`);
  await symlink(target, mine);
  try {
    await rename(mine, link);
  } catch (error) {
    await rm(mine, { force: true });
    throw error;
  }
};

const NOT_EXCLUSIVE: StoreLock = { exclusive: false, release: async () => undefined };

/**
 * Takes the lock of the LevelDB store at `location` (a real path) without opening the store.
 * Fails with code LEVEL_LOCKED (itself or as the cause) when another process holds it, or this
 * one does: a second holder in one process is refused here, before LevelDB could drop the lock.
 */
export const takeStoreLock = async (location: string): Promise<StoreLock> => {
  if (process.platform === 'win32') return NOT_EXCLUSIVE; // LockFileEx holds per handle
  if (held.has(location)) throw lockedError(location);
  held.add(location);
  try {
    const dir = lockDirOf(location);
    // the store's directory first: the link's target is created through it, by LevelDB
    makeDirs(location, 0o700);
    makeDirs(dir, 0o700);
    await linkLock(dir, location);
    const lock = new ClassicLevel(dir);
    await lock.open();
    let released: Promise<void> | undefined;
    return {
      exclusive: true,
      release: () =>
        (released ??= lock.close().finally(() => {
          held.delete(location);
        })),
    };
  } catch (error) {
    held.delete(location);
    throw error;
  }
};
