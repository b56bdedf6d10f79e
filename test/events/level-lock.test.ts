import { strict as assert } from 'node:assert';
import { cp, mkdir, mkdtemp, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openClassicLevel, type LevelDb } from '../../src/events/level/level-db.js';
import { linkLock, lockDirOf } from '../../src/events/level/level-lock.js';
import { copyStoreFiles, filesHolding, filesUnder } from '../../src/events/level/level-scan.js';
import { prepareDataDir } from '../../src/events/open-data-dir.js';
import { spawnFixture, waitUntil } from '../fixtures/children.js';
import { canSeeLocks, lockHolders } from '../support/lock-holders.js';

const withDataDir = async (body: (dir: string) => Promise<void>): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-lock-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** What another process gets when it opens the store: held (it opened it) or locked. */
const otherProcessOpens = async (location: string): Promise<'held' | 'locked'> => {
  const child = spawnFixture('hold-store.ts', [location]);
  await waitUntil('the other process', () => child.lines.length > 0 || child.exited());
  child.proc.stdin!.end();
  await child.exit;
  const [line] = child.lines;
  assert.ok(line, `no answer: ${child.stderr()}`);
  return line.held ? 'held' : 'locked';
};

const isLocked = (error: unknown): boolean => {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return code === 'LEVEL_LOCKED' || cause?.code === 'LEVEL_LOCKED';
};

describe("the store's lock is never touched (issue 28)", () => {
  it('holds across every scan of the data dir and a second open in the same process', () =>
    withDataDir(async (dir) => {
      const location = join(dir, 'log');
      const db: LevelDb = await openClassicLevel(location);
      try {
        await db.put(Buffer.from('k'), Buffer.from('a text of the store, 0123456789'));
        const held = async (after: string) => {
          if (canSeeLocks)
            assert.deepEqual(await lockHolders(join(location, 'LOCK')), [process.pid], after);
        };
        await held('opened');

        // When this process scans its own data dir, every way it does
        assert.ok((await filesUnder(dir)).length > 0);
        await filesHolding(dir, ['a text of the store', 'nothing of the kind 42']);
        await held('after filesHolding');
        await prepareDataDir(dir);
        await held('after prepareDataDir');
        await copyStoreFiles(location, join(dir, 'copy'));
        await held('after a copy of the store');
        // a second open in this process is refused before LevelDB could close a descriptor
        await assert.rejects(openClassicLevel(location), isLocked);
        await held('after a second open in this process');

        // Then no other process can open the store
        assert.equal(await otherProcessOpens(location), 'locked');
      } finally {
        await db.close();
      }
      assert.equal(await otherProcessOpens(location), 'held', 'closed, the lock is free');
    }));

  it('a process that does not hold the lock reads none of the store: its files are not its business', () =>
    withDataDir(async (dir) => {
      const location = join(dir, 'log');
      const holder = spawnFixture('hold-store.ts', [location], 'holder');
      try {
        await waitUntil('the holder', () => holder.lines.length > 0 || holder.exited());
        assert.deepEqual(holder.lines[0], { held: true }, holder.stderr());
        // Given a file in the held store that fails its check (a whole record, a wrong CRC)
        const torn = join(location, '999999.log');
        await writeFile(
          torn,
          Buffer.from([0xde, 0xad, 0xbe, 0xef, 4, 0, 1, 0x61, 0x62, 0x63, 0x64]),
        );
        // When this process tries to open the store, it is locked out, not told it is corrupt
        await assert.rejects(openClassicLevel(location), isLocked);
        await rm(torn);
      } finally {
        holder.proc.stdin!.end();
        await holder.exit;
      }
    }));

  it('a copy of a data dir locks its own store, not the one it was copied from', () =>
    withDataDir(async (dir) => {
      const original = join(dir, 'a');
      await mkdir(original);
      await (await openClassicLevel(join(original, 'log'))).close();
      // Node's fs.cp makes the copied link absolute: to the original's LOCK
      await cp(original, join(dir, 'b'), { recursive: true });
      const copy = await openClassicLevel(join(dir, 'b', 'log'));
      try {
        assert.equal(await otherProcessOpens(join(original, 'log')), 'held');
        assert.equal(await otherProcessOpens(join(dir, 'b', 'log')), 'locked');
      } finally {
        await copy.close();
      }
    }));
});

describe("the lock's first start is race-free (issue 40)", () => {
  const OPENERS = 16;
  const ROUNDS = 100;

  it(`${OPENERS} openers linking the lock of a fresh data dir at once, ${ROUNDS} rounds: every one succeeds, the link is right`, () =>
    withDataDir(async (dir) => {
      for (let round = 0; round < ROUNDS; round++) {
        const location = join(dir, `r${round}`, 'log');
        const lockDir = lockDirOf(location);
        await mkdir(location, { recursive: true });
        await mkdir(lockDir, { recursive: true });
        const linked = await Promise.allSettled(
          // staggered as processes are: each step of one falls between another's
          Array.from({ length: OPENERS }, (_, i) =>
            delay(((i * 37 + round * 11) % 5) * 0.2).then(() => linkLock(lockDir, location)),
          ),
        );
        const failed = linked.filter((r) => r.status === 'rejected');
        assert.deepEqual(failed, [], `round ${round}`);
        assert.equal(await readlink(join(lockDir, 'LOCK')), join('..', 'log', 'LOCK'));
        // nothing of an opener's own is left beside the link
        assert.deepEqual(await readdir(lockDir), ['LOCK']);
      }
    }));

  it('a wrong link or a plain file in its place is replaced by the right link', () =>
    withDataDir(async (dir) => {
      const location = join(dir, 'log');
      const lockDir = lockDirOf(location);
      await mkdir(lockDir, { recursive: true });
      await writeFile(join(lockDir, 'LOCK'), '');
      await linkLock(lockDir, location);
      assert.equal(await readlink(join(lockDir, 'LOCK')), join('..', 'log', 'LOCK'));
      await rm(join(lockDir, 'LOCK'));
      await symlink('/elsewhere/log/LOCK', join(lockDir, 'LOCK'));
      await linkLock(lockDir, location);
      assert.equal(await readlink(join(lockDir, 'LOCK')), join('..', 'log', 'LOCK'));
    }));
});
