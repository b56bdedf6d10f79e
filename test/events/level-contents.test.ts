import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ClassicLevel } from 'classic-level';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { levelFileContents } from '../../src/events/level/level-contents.js';

describe('LevelDB file contents for a byte search', () => {
  it('finds a text a compressed table holds though its raw bytes do not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-contents-'));
    try {
      const location = join(dir, 'log');
      const db = new ClassicLevel<string, string>(location);
      const stem = 'stem-0123456789-abcdefghij-klmnopqrst-';
      const needle = `${stem}NEEDLE`;
      // the stem first, many times (so the block compresses), then the needle: Snappy stores
      // the needle's stem as a copy of the earlier bytes, never again as one run
      for (let i = 0; i < 50; i++) await db.put(`a${String(i).padStart(3, '0')}`, stem);
      await db.put('b', needle);
      await db.compactRange('a', 'c'); // the memtable into a (compressed) table
      await db.close();
      const tables = (await readdir(location)).filter((n) => n.endsWith('.ldb'));
      assert.ok(tables.length > 0, 'a table was written');
      const raw = await Promise.all(tables.map((n) => readFile(join(location, n))));
      assert.ok(
        raw.every((bytes) => !bytes.includes(needle)),
        'the raw bytes do not hold the needle (else this test proves nothing)',
      );
      const decoded = tables.flatMap((n, i) => levelFileContents(n, raw[i]!));
      assert.ok(decoded.some((b) => b.equals(Buffer.from(needle))));
      assert.deepEqual(
        (await filesHolding(dir, [needle])).map((f) => f.slice(dir.length + 1)),
        tables.map((n) => join('log', n)),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('joins a write-ahead record split across two 32 KiB blocks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-contents-'));
    try {
      const location = join(dir, 'log');
      const db = new ClassicLevel<string, string>(location);
      const needle = 'SPLIT-across-the-block-boundary-7731';
      // 32,768-byte blocks with a 7-byte header each: this value puts the needle across the
      // first boundary
      await db.put('k', `${'x'.repeat(32768 - 7 - 40)}${needle}`);
      await db.close();
      const logs = (await readdir(location)).filter((n) => n.endsWith('.log'));
      const raw = await Promise.all(logs.map((n) => readFile(join(location, n))));
      assert.ok(
        raw.every((bytes) => !bytes.includes(needle)),
        'split in the raw bytes',
      );
      assert.equal((await filesHolding(dir, [needle])).length, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
