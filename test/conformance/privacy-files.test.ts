// Sealed content never reaches a LevelDB file in plaintext: an event, the idempotency record of
// the command that wrote it and a sealed read-model value, written, shredded, the database
// compacted and closed; then every file of the data dir is searched for the statement's bytes
// (raw, and as LevelDB's decompressed blocks and whole records: level-scan.ts).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { levelEventLog, openCatalog, openClassicLevel } from '../../src/events/index.js';
import { compact } from '../../src/events/level/level-db.js';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { distinctStatement, writeAndShred } from './privacy-scenario.js';

it('LevelDB: after a shred no file of the data dir holds the statement', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-privacy-'));
  try {
    const statement = distinctStatement();
    const db = await openClassicLevel(join(dir, 'log'));
    const log = await levelEventLog(db, openCatalog);
    await writeAndShred(log, statement);
    // the control: content stored in plaintext is found by the same search
    const control = distinctStatement();
    await log.appendToStream('note:p:plain', [{ type: 'thing.said', data: { text: control } }]);
    await compact(db, Buffer.of(0), Buffer.of(0xff));
    await log.close();
    assert.deepEqual(await filesHolding(dir, [statement]), []);
    assert.ok((await filesHolding(dir, [control])).length > 0, 'the control is found');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
