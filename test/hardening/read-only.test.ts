import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliIn, seed, withDataDir } from '../cli/cli-harness.js';

/** A read-only bind mount of `dir` (root ignores file modes, so chmod alone proves nothing). */
const readOnlyView = (dir: string): { path: string; release(): Promise<void> } | string => {
  if (process.platform !== 'linux') return 'bind mounts need Linux';
  if (process.getuid?.() !== 0) return 'bind mounts need root';
  const path = `${dir}-read-only`;
  try {
    execFileSync('mkdir', ['-p', path]);
    execFileSync('mount', ['--bind', dir, path], { stdio: 'pipe' });
    execFileSync('mount', ['-o', 'remount,ro,bind', path], { stdio: 'pipe' });
  } catch (error) {
    try {
      execFileSync('umount', [path], { stdio: 'pipe' });
    } catch {
      // it was never mounted
    }
    return `a read-only bind mount is not permitted here: ${(error as Error).message.split('\n')[0]}`;
  }
  return {
    path,
    release: async () => {
      execFileSync('umount', [path]);
      await rm(path, { recursive: true, force: true });
    },
  };
};

const canMount = process.platform === 'linux' && process.getuid?.() === 0;
const skip = canMount ? false : 'needs root on Linux for a read-only bind mount';
if (skip) console.log(`SKIPPED read-only data dir tests: ${skip}`);

describe('a read-only data dir (issue 19, defects 4 and 5)', () => {
  it(
    'audit verify, log and export read it; a write names EROFS; nothing in it changes',
    { skip },
    () =>
      withDataDir(async (dir) => {
        const head = await seed(dir);
        const view = readOnlyView(dir);
        if (typeof view === 'string') return assert.fail(view);
        try {
          const before = await readdir(join(view.path, 'log'));
          const verified = await cliIn(view.path, ['audit', 'verify']);
          assert.equal(verified.code, 0, verified.stderr);
          assert.match(verified.stdout, new RegExp(`^ok: ${head} events in 3 projects`));
          assert.match(verified.stderr, /cannot be written .*reading a private copy/);

          const log = await cliIn(view.path, ['log']);
          assert.equal(log.code, 0, log.stderr);
          assert.equal(log.stdout.trimEnd().split('\n').length, head);

          const exported = await cliIn(view.path, ['export', '--project', 'alpha']);
          assert.equal(exported.code, 0, exported.stderr);
          assert.equal(exported.stdout.trimEnd().split('\n').length, 3);

          const write = await cliIn(view.path, ['token', 'create', '--system']);
          assert.equal(write.code, 1);
          assert.match(write.stderr, /caused by: .*[Rr]ead-only file system/);
          assert.deepEqual(await readdir(join(view.path, 'log')), before);
        } finally {
          await view.release();
        }
      }),
  );

  it('a missing MANIFEST is named, not just "Database failed to open"', () =>
    withDataDir(async (dir) => {
      await seed(dir);
      for (const name of await readdir(join(dir, 'log')))
        if (name.startsWith('MANIFEST-')) await rm(join(dir, 'log', name));
      const r = await cliIn(dir, ['log']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /caused by: .*MANIFEST/);
    }));

  it('an existing data dir is tightened to 0700, its files to 0600, with a warning', () =>
    withDataDir(async (dir) => {
      await seed(dir);
      execFileSync('chmod', ['-R', 'go+rX', dir]);
      await mkdir(join(dir, 'extra'), { mode: 0o755 });
      await writeFile(join(dir, 'notes.txt'), 'x', { mode: 0o644 });
      const r = await cliIn(dir, ['log']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /tightened the permissions of/);
      assert.equal((await stat(dir)).mode & 0o777, 0o700);
      assert.equal((await stat(join(dir, 'extra'))).mode & 0o777, 0o700);
      // (LevelDB rewrites its own files at open, 0644 by its umask, inside the 0700 dir)
      assert.equal((await stat(join(dir, 'notes.txt'))).mode & 0o777, 0o600);
      const again = await cliIn(dir, ['log']);
      assert.doesNotMatch(again.stderr, /tightened/);
    }));
});
