import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findLink, writeLink } from '../../src/app/storymap/link.js';
import { DomainError } from '../../src/commands/errors.js';

const withDir = async (body: (dir: string) => Promise<void>) => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-link-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof DomainError && error.code === code;

describe('the project link (.intentlog/config.json)', () => {
  it('is found from the linked directory and any directory below it', () =>
    withDir(async (dir) => {
      const file = await writeLink(dir, { project_id: 'p-1', name: 'Photo Book' });
      assert.equal(file, join(dir, '.intentlog', 'config.json'));
      const deep = join(dir, 'src', 'a', 'b');
      await mkdir(deep, { recursive: true });
      for (const from of [dir, deep]) {
        const linked = await findLink(from);
        assert.equal(linked.project_id, 'p-1');
        assert.equal(linked.root, dir);
      }
    }));

  it('the nearest link wins', () =>
    withDir(async (dir) => {
      await writeLink(dir, { project_id: 'outer' });
      await writeLink(join(dir, 'inner'), { project_id: 'inner' });
      assert.equal((await findLink(join(dir, 'inner'))).project_id, 'inner');
    }));

  it('refuses a missing or unreadable link, naming the fix', () =>
    withDir(async (dir) => {
      await assert.rejects(findLink(dir), refusedWith('not_linked'));
      await mkdir(join(dir, '.intentlog'));
      await writeFile(join(dir, '.intentlog', 'config.json'), '{ not json');
      await assert.rejects(findLink(dir), refusedWith('link_invalid'));
      await writeFile(join(dir, '.intentlog', 'config.json'), '{"name":"x"}');
      await assert.rejects(findLink(dir), /names no project_id/);
    }));
});
