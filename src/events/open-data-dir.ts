import { chmod, lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from './make-dirs.js';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** What `tightenDataDir` changed, and what it could not. */
export type Tightened = { changed: string[]; failed: string[] };

/**
 * The data dir (followed, if it is a link) and what is under it (not followed: a link inside
 * leads elsewhere, e.g. `.log.lock/LOCK` to the store's own). A file that vanishes meanwhile (a
 * writer's compaction) needed nothing.
 */
const visit = async (path: string, into: Tightened, follow = false): Promise<void> => {
  const info = await (follow ? stat : lstat)(path).catch(() => undefined);
  if (!info || (!info.isDirectory() && !info.isFile())) return; // sockets stay 0600 as served
  const wanted = info.isDirectory() ? PRIVATE_DIR : PRIVATE_FILE;
  if ((info.mode & 0o077) !== 0) {
    const was = (info.mode & 0o777).toString(8).padStart(4, '0');
    await chmod(path, info.mode & wanted).then(
      () => into.changed.push(`${path} (was ${was})`),
      (error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? undefined : into.failed.push(`${path} (${was})`),
    );
  }
  if (info.isDirectory())
    for (const name of await readdir(path).catch(() => [] as string[]))
      await visit(join(path, name), into);
};

/**
 * The data dir holds the sealing keys: only its owner may read it. A new one is made 0700; an
 * existing one with any group or other bits (made by an older version, or copied) is tightened to
 * 0700 for directories and 0600 for files, with a warning (files inside a data dir that was
 * already 0700 are tightened without one), or, where that is not possible (a
 * read-only copy, another owner), a warning that says how to fix it. Never refused: an auditor's
 * read-only copy must stay readable.
 */
export const prepareDataDir = async (dataDir: string): Promise<Tightened> => {
  // an existing one is left as it is: on a read-only file system, only reading commands get here
  makeDirs(dataDir, PRIVATE_DIR);
  const result: Tightened = { changed: [], failed: [] };
  const exposed = ((await stat(dataDir)).mode & 0o077) !== 0;
  await visit(dataDir, result, true);
  // LevelDB makes its own files 0644 inside: harmless under a 0700 data dir, tightened quietly
  if (exposed && result.changed.length > 0)
    process.emitWarning(
      `tightened the permissions of ${dataDir} (it holds the sealing keys): ` +
        `${result.changed.length} entries, e.g. ${result.changed[0]}`,
      { code: 'INTENTLOG_PERMISSIONS' },
    );
  if (result.failed.length > 0)
    process.emitWarning(
      `${dataDir} is readable by other users and could not be tightened ` +
        `(e.g. ${result.failed[0]}): run  chmod -R go-rwx ${dataDir}`,
      { code: 'INTENTLOG_PERMISSIONS' },
    );
  return result;
};
