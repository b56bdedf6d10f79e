import { cp, lstat, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { levelFileContents } from './level-contents.js';

/** The identity (device and inode) of a file, whatever name reaches it. */
const identity = (s: { dev: number; ino: number }): string => `${s.dev}:${s.ino}`;

/**
 * Every regular file under a data dir, recursively, but the store's lock: reading a file means
 * opening and closing it, and closing any descriptor of the LOCK file releases this process's
 * lock on it (level-lock.ts), making a second writer possible. So a LOCK is never a candidate,
 * by name or by identity (a link to it), nor is anything that is not a regular file (a symbolic
 * link may lead to the LOCK: `.log.lock/LOCK` does; a socket cannot be read).
 */
export const filesUnder = async (dataDir: string): Promise<string[]> => {
  const lock = await stat(join(dataDir, 'log', 'LOCK')).then(identity, () => undefined);
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const nested = await Promise.all(
      entries.map(async (e): Promise<string[]> => {
        const path = join(dir, e.name);
        if (e.isDirectory()) return walk(path);
        if (!e.isFile() || e.name === 'LOCK') return [];
        const same = await lstat(path).then(
          (s) => identity(s) === lock,
          () => true,
        );
        return same ? [] : [path];
      }),
    );
    return nested.flat();
  };
  return walk(dataDir);
};

/**
 * The files of the data dir whose bytes still hold any of these texts: as raw bytes, or as what
 * a reader recovers from a LevelDB file (decompressed table blocks, whole log records), since a
 * compressed or split copy of a text is still a copy. A file the writer deletes meanwhile (a
 * compaction) holds nothing.
 */
export const filesHolding = async (
  dataDir: string,
  texts: readonly string[],
): Promise<string[]> => {
  const needles = texts.filter((t) => t.length >= 8).map((t) => Buffer.from(t, 'utf8'));
  const found: string[] = [];
  for (const file of await filesUnder(dataDir)) {
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    const views = [bytes, ...levelFileContents(basename(file), bytes)];
    if (needles.some((n) => views.some((v) => v.includes(n)))) found.push(file);
  }
  return found;
};

/**
 * Copies a store's directory (a private copy to read or salvage) without its LOCK, which the
 * copy never needs (LevelDB makes its own) and a copying process must not open (see above).
 */
export const copyStoreFiles = (from: string, to: string): Promise<void> =>
  cp(from, to, { recursive: true, filter: (source) => basename(source) !== 'LOCK' });
