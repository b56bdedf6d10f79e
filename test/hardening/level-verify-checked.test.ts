import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openClassicLevel } from '../../src/events/index.js';
import { CorruptStoreError, verifyLevelFiles } from '../../src/events/level/level-verify.js';

describe('table files checked once at open', () => {
  it('remembers the tables that passed, and checks a changed one again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-checked-'));
    try {
      const location = join(dir, 'log');
      let db = await openClassicLevel(location);
      for (let i = 0; i < 200; i++) await db.put(Buffer.from(`k${i}`), Buffer.alloc(500, i));
      await db.close();
      db = await openClassicLevel(location); // reopening moves the write-ahead log into a table
      await db.close();
      await verifyLevelFiles(location);
      const checked = JSON.parse(await readFile(join(dir, '.log.checked.json'), 'utf8')) as object;
      const tables = (await readdir(location)).filter((n) => n.endsWith('.ldb'));
      assert.ok(tables.length > 0);
      assert.deepEqual(Object.keys(checked).sort(), tables.sort());

      const path = join(location, tables.at(-1)!);
      const bytes = await readFile(path);
      for (let i = 100; i < 140; i++) bytes[i] = bytes[i]! ^ 0xff;
      await writeFile(path, bytes);
      await assert.rejects(verifyLevelFiles(location), CorruptStoreError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
