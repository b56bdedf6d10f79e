import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type SmallFs = { dir: string; unmount(): Promise<void> };

/** A small tmpfs of our own, or the reason there cannot be one here (then the test is skipped). */
export const mountSmallFs = async (size = '4m'): Promise<SmallFs | string> => {
  if (process.platform !== 'linux') return 'tmpfs mounts need Linux';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return `mount -t tmpfs is not permitted here: ${(error as Error).message.split('\n')[0]}`;
  }
  return {
    dir,
    unmount: async () => {
      execFileSync('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
};

/** Writes a file until the file system is full, in ever smaller pieces; answers its path. */
export const fill = async (dir: string): Promise<string> => {
  const path = join(dir, 'filler');
  const file = await open(path, 'w');
  try {
    for (const size of [64 * 1024, 4096]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) await file.write(chunk);
      } catch (error) {
        assert.equal((error as { code?: string }).code, 'ENOSPC');
      }
    }
  } finally {
    await file.close();
  }
  return path;
};
