import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ioCauseOf } from './io-errors.js';
import { copyStoreFiles } from './level/level-scan.js';

/** Open failures that mean "this data dir cannot be written here" (not: it is broken). */
const READ_ONLY = new Set(['EROFS', 'EACCES', 'EPERM']);

/** Whether an open failed only because the data dir cannot be written (a read-only copy). */
export const isReadOnlyFailure = (error: unknown): boolean => READ_ONLY.has(ioCauseOf(error) ?? '');

/**
 * A private, writable copy of a data dir that cannot be written (an auditor's read-only copy, a
 * read-only mount): LevelDB cannot open a directory it cannot lock and write its recovery into,
 * so a command that only reads opens this copy instead. Nobody can be writing to a directory
 * that cannot be written, so the copy is the store as it is. `remove` deletes the copy.
 */
export const snapshotDataDir = async (
  dataDir: string,
): Promise<{ dataDir: string; remove(): Promise<void> }> => {
  const scratch = await mkdtemp(join(tmpdir(), 'intentlog-read-only-'));
  const copy = join(scratch, 'data');
  try {
    await copyStoreFiles(join(dataDir, 'log'), join(copy, 'log'));
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return { dataDir: copy, remove: () => rm(scratch, { recursive: true, force: true }) };
};
