// Sealed content never reaches PostgreSQL's files in plaintext: an event and the idempotency
// record of the command that wrote it (read models live in the instance's memory), written and
// shredded, a CHECKPOINT forcing every page to disk; then every file of the database's
// directory under the server's data directory is searched for the statement's bytes.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import pg from 'pg';
import { openCatalog } from '../../src/events/index.js';
import { openPostgresEventLog } from '../../src/events/postgres/index.js';
import { dropSchema, freshSchema, storeUrl, testDatabaseUrl } from '../postgres/pg-test-db.js';
import { distinctStatement, filesHolding, writeAndShred } from './privacy-scenario.js';

const databaseDir = async (client: pg.Client): Promise<string> => {
  const { rows } = await client.query<{ dir: string; oid: number }>(
    `SELECT current_setting('data_directory') AS dir, oid FROM pg_database
     WHERE datname = current_database()`,
  );
  return join(rows[0]!.dir, 'base', String(rows[0]!.oid));
};

it('PostgreSQL: no file of the database holds the statement', async (t) => {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  const schema = freshSchema('privacy');
  try {
    const dir = await databaseDir(client);
    if (
      !(await access(dir).then(
        () => true,
        () => false,
      ))
    )
      return t.skip(`the server's files (${dir}) are not readable from here`);
    const statement = distinctStatement();
    const control = distinctStatement();
    const log = await openPostgresEventLog(storeUrl(schema), openCatalog);
    try {
      await writeAndShred(log, statement);
      // the control: content stored in plaintext is found by the same search
      await log.appendToStream('note:p:plain', [{ type: 'thing.said', data: { text: control } }]);
    } finally {
      await log.close();
    }
    await client.query('CHECKPOINT');
    assert.deepEqual(await filesHolding(dir, statement), []);
    assert.ok((await filesHolding(dir, control)).length > 0, 'the control is found');
  } finally {
    await client.end();
    await dropSchema(schema);
  }
});
