import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliIn, seed, watchStdout, withDataDir } from '../cli/cli-harness.js';
import { root, startServe } from '../e2e/harness.js';
import { notifyChange, waitUntil } from '../fixtures/children.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

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

/** `intentlog <args>` as a running process, its stderr collected and its exit awaited. */
const started = (args: string[], env: Record<string, string> = {}) => {
  const proc = spawn(process.execPath, intentlogArgs(args), {
    cwd: root,
    env: { ...process.env, INTENTLOG_HOME: '', INTENTLOG_STORE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    notifyChange();
  });
  let code: number | null | undefined;
  const exit = new Promise<number | null>((resolve) =>
    proc.on('close', (c) => {
      code = c;
      notifyChange();
      resolve(c);
    }),
  );
  return { proc, stdout: watchStdout(proc), stderr: () => stderr, exit, code: () => code };
};

describe('a process holding a read-only data dir stops on SIGTERM (issue 28, item 8)', () => {
  it(
    'followers whose writer went away exit at once and cleanly (log and sync --follow)',
    { skip },
    () =>
      withDataDir(async (dir) => {
        const head = await seed(dir);
        const view = readOnlyView(dir);
        if (typeof view === 'string') return assert.fail(view);
        const serving = await startServe(dir);
        // a read waiting for the writer would otherwise wait this long before it failed
        const env = { INTENTLOG_WRITER_TIMEOUT_MS: '600000' };
        const followers = [
          started(['log', '--follow', '--data-dir', view.path], env),
          started(['sync', '--project', 'alpha', '--follow', '--data-dir', view.path], env),
        ];
        try {
          // Given followers of the writer, through a read-only view of its data dir
          await followers[0]!.stdout.until((t) => t.trim().split('\n').length >= head);
          await followers[1]!.stdout.until((t) => t.trim().split('\n').length >= 3);
          // When the writer stops, and nobody can take its place (the view cannot be written)
          assert.equal(await serving.stop('SIGTERM'), 0, serving.stderr());
          await waitUntil('the followers trying to take over', () =>
            followers.every((f) => /failed to open|read-only file system/i.test(f.stderr())),
          );
          // a poll (every second) is waiting for a writer by now
          await new Promise((resolve) => setTimeout(resolve, 1500));
          // Then each one stops at SIGTERM, exit code 0, not at its 10-minute timeout
          for (const f of followers) f.proc.kill('SIGTERM');
          await waitUntil(
            'the followers exiting',
            () => followers.every((f) => f.code() !== undefined),
            () => undefined,
            20_000,
          );
          for (const f of followers) {
            assert.equal(f.code(), 0, f.stderr());
            assert.doesNotMatch(f.stderr(), /\n\s+at /, 'no stack trace');
          }
        } finally {
          for (const f of followers) f.proc.kill('SIGKILL');
          serving.proc.kill('SIGKILL');
          await view.release();
        }
      }),
  );

  it('a command reading a private copy removes it when stopped', { skip }, () =>
    withDataDir(async (dir) => {
      await seed(dir);
      const view = readOnlyView(dir);
      if (typeof view === 'string') return assert.fail(view);
      const scratch = `${dir}-tmp`;
      await mkdir(scratch);
      try {
        const verify = started(['audit', 'verify', '--data-dir', view.path], { TMPDIR: scratch });
        await waitUntil(
          'the private copy',
          () => /reading a private copy/.test(verify.stderr()) || verify.code() !== undefined,
        );
        verify.proc.kill('SIGTERM');
        await verify.exit;
        assert.deepEqual(await readdir(scratch), [], 'no private copy left behind');
      } finally {
        await view.release();
      }
    }),
  );
});
