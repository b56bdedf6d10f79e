import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEventLog, writerSocketPath } from '../../src/events/open-log.js';
import { testCatalog } from '../fixtures/test-catalog.js';

const note = (text: string) => ({ type: 'note.added', data: { text } });

test('a data dir too deep for a socket path, or reached by another name, still has one writer', async (t) => {
  if (process.platform === 'win32') return t.skip('named pipes have no such limit');
  const root = await mkdtemp(join(tmpdir(), 'intentlog-deep-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const dataDir = join(root, 'a-directory-name-of-some-length'.repeat(4), 'data');
  await mkdir(dataDir, { recursive: true });
  assert.ok(Buffer.byteLength(join(dataDir, 'writer.sock')) > 108);

  const writer = await openEventLog({ dataDir, catalog: testCatalog });
  // in one process LevelDB's lock stops only the same path: the second open uses it too
  const follower = await openEventLog({ dataDir, catalog: testCatalog });
  const alias = join(root, 'alias');
  await symlink(dataDir, alias);
  try {
    assert.equal(writer.role(), 'writer');
    assert.equal(follower.role(), 'follower');
    const socket = writerSocketPath(dataDir);
    assert.equal(writerSocketPath(alias), socket, 'another name of the data dir finds it too');
    // and LevelDB's lock knows the alias for the same files: a third open follows the writer
    const third = await openEventLog({ dataDir: alias, catalog: testCatalog });
    try {
      assert.equal(third.role(), 'follower');
      await third.appendToStream('note:p1:deep', [note('through an alias')]);
    } finally {
      await third.close();
    }
    assert.ok(socket.startsWith(tmpdir()) && Buffer.byteLength(socket) <= 103, socket);
    assert.equal((await stat(socket)).mode & 0o777, 0o600);
    assert.equal((await stat(join(socket, '..'))).mode & 0o777, 0o700);

    await follower.appendToStream('note:p1:deep', [note('through the socket')]);
    const read = await writer.readStream('note:p1:deep');
    assert.deepEqual(
      read.events.map((e) => e.data),
      [{ text: 'through an alias' }, { text: 'through the socket' }],
    );
  } finally {
    await follower.close();
    await writer.close();
  }
});
