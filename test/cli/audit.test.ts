import { strict as assert } from 'node:assert';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ClassicLevel } from 'classic-level';
import { chainHash, decode, encode, type StoredRecord } from '../../src/events/index.js';
import { cliIn, seed, withDataDir } from './cli-harness.js';

type Db = ClassicLevel<Buffer, Buffer>;
const G = 0x67; // the global log's key prefix (src/events/level/keys.ts)
const M = 0x6d; // read models

/** Copies a closed data dir and lets the body edit the copy's LevelDB directly. */
const tamperedCopy = async (dir: string, edit: (db: Db) => Promise<void>): Promise<string> => {
  const copy = `${dir}-copy`; // a sibling, so withDataDir removes it too
  await cp(dir, copy, { recursive: true });
  const db = new ClassicLevel<Buffer, Buffer>(join(copy, 'log'), {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
  });
  await db.open();
  try {
    await edit(db);
  } finally {
    await db.close();
  }
  return copy;
};

const globalRecords = (db: Db) => db.iterator({ gte: Buffer.of(G), lt: Buffer.of(G + 1) }).all();

/** The stored record whose bytes contain `text`, with its key and value. */
const recordContaining = async (db: Db, text: string) => {
  for (const [key, value] of await globalRecords(db))
    if (value.includes(Buffer.from(text)))
      return { key, value, record: decode<StoredRecord>(value) };
  throw new Error(`no record contains ${text}`);
};

describe('intentlog audit verify', () => {
  it('verifies a clean data dir', async () => {
    await withDataDir(async (dir) => {
      const head = await seed(dir);
      const result = await cliIn(dir, ['audit', 'verify']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`^ok: ${head} events in 3 projects`));
    });
  });

  it('names the event one flipped byte is in, and exits non-zero', async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      let tampered: StoredRecord | undefined;
      const copy = await tamperedCopy(dir, async (db) => {
        const { key, value, record } = await recordContaining(db, 'Alpha project');
        tampered = record;
        const at = value.indexOf(Buffer.from('Alpha project'));
        const flipped = Buffer.from(value);
        flipped[at] = flipped[at]! ^ 0x01; // 'A' → '@': still valid msgpack, different content
        await db.put(key, flipped);
      });
      const result = await cliIn(copy, ['audit', 'verify']);
      assert.equal(result.code, 1);
      assert.ok(tampered);
      assert.match(result.stderr, new RegExp(`event ${tampered.event_id}`));
      assert.match(result.stderr, /chain check failed.*hash does not match content/);
      assert.equal((await cliIn(dir, ['audit', 'verify'])).code, 0, 'the original is untouched');
    });
  });

  it('names a record that no longer decodes by its position', async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      let position = 0;
      const copy = await tamperedCopy(dir, async (db) => {
        const { key, value, record } = await recordContaining(db, 'Beta');
        position = record.global_position;
        const broken = Buffer.from(value);
        broken[0] = 0xc1; // a byte msgpack never uses
        await db.put(key, broken);
      });
      const result = await cliIn(copy, ['audit', 'verify']);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        // refused at open by the tail check, or found by the audit's own scan: named either way
        new RegExp(
          `global position ${position}: record does not decode|` +
            `record at position ${position} cannot be decoded`,
        ),
      );
    });
  });

  it("checks data against its own version's schema even where the chain is intact", async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      let eventId = '';
      const copy = await tamperedCopy(dir, async (db) => {
        // beta's last event, re-hashed after the edit: only the schema check can see it
        const { key, record } = await recordContaining(db, 'laptop');
        const { hash: _old, ...rest } = { ...record, data: { ...record.data, device: 42 } };
        eventId = record.event_id;
        await db.put(key, encode({ ...rest, hash: chainHash(rest) }));
      });
      const result = await cliIn(copy, ['audit', 'verify', '--json']);
      assert.equal(result.code, 1);
      const report = JSON.parse(result.stdout) as { ok: boolean; finding: Record<string, unknown> };
      assert.equal(report.ok, false);
      assert.equal(report.finding.check, 'schema');
      assert.equal(report.finding.event_id, eventId);
    });
  });

  it('finds a stored read model that replaying the log does not reproduce', async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      const key = 'projects/project/alpha';
      const copy = await tamperedCopy(dir, async (db) => {
        const stored = Buffer.concat([Buffer.of(M), Buffer.from(key)]);
        const view = decode<Record<string, unknown>>((await db.get(stored))!);
        await db.put(stored, encode({ ...view, name: 'Renamed behind the log' }));
      });
      const result = await cliIn(copy, ['audit', 'verify']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`read model ${key}: stored value differs`));
    });
  });
});
