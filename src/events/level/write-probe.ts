import { open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Room beyond the write-ahead logs and MANIFEST: the new MANIFEST and log LevelDB writes. */
const MARGIN = 256 * 1024;
const CHUNK = 64 * 1024;

/**
 * What reopening the store will write: LevelDB's recovery turns its write-ahead logs into a
 * table and writes a new MANIFEST before it deletes the old ones. Only names and sizes are read
 * (never a file's contents, never the lock).
 */
const recoveryBytes = async (location: string): Promise<number> => {
  let bytes = MARGIN;
  for (const name of await readdir(location).catch(() => [] as string[]))
    if (name.endsWith('.log') || name.startsWith('MANIFEST-'))
      bytes += await stat(join(location, name)).then(
        (s) => s.size,
        () => 0,
      );
  return bytes;
};

/**
 * Whether the data dir can take what reopening the store will write: a file of that size is
 * written and made durable beside the store, then removed. Rejects with the file system's error
 * (ENOSPC, EDQUOT, EROFS…) while it cannot. A probe writes, so it also finds a quota or a
 * read-only remount, which free-space figures would not.
 */
export const probeSpace = async (dataDir: string, location: string): Promise<void> => {
  const bytes = await recoveryBytes(location);
  const path = join(dataDir, `.write-probe-${process.pid}`);
  const file = await open(path, 'w', 0o600);
  try {
    const chunk = Buffer.alloc(CHUNK);
    for (let written = 0; written < bytes; written += CHUNK) await file.write(chunk);
    await file.datasync();
  } finally {
    await file.close();
    await unlink(path).catch(() => {});
  }
};
