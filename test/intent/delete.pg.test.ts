// intent_delete on the PostgreSQL store: the deleted statement is in no row of the log's schema
// and, after a CHECKPOINT, in no file of the database (when the server's files are readable
// from here), while plain text stored beside it is found by the same search; `audit verify`
// passes afterwards.
import { strict as assert } from 'node:assert';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { after, it } from 'node:test';
import pg from 'pg';
import { filesHolding } from '../../src/events/level/level-scan.js';
import { claimSubject, intentRef } from '../../src/events/intent/index.js';
import { distinctStatement } from '../conformance/privacy-scenario.js';
import { dropSchema, freshSchema, storeUrl, testDatabaseUrl } from '../postgres/pg-test-db.js';
import { verifyAudit } from './audit.js';
import { intentClient, openAt, userSource, withDir } from './harness.js';

const schema = freshSchema('intent_delete');
after(() => dropSchema(schema));

/** Every row of every table of the schema, as text, that holds `needle`. */
const rowsHolding = async (client: pg.Client, needle: string): Promise<string[]> => {
  const { rows: tables } = await client.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  );
  const found: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}"."${table_name}" t WHERE t::text LIKE $1`,
      [`%${needle}%`],
    );
    if (Number(rows[0]!.n) > 0) found.push(table_name);
  }
  return found;
};

/** How many content keys the log holds for a claim's subject. */
const keysOf = async (claimId: string): Promise<number> => {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".content_keys WHERE subject = $1`,
      [claimSubject(claimId)],
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
};

const databaseDir = async (client: pg.Client): Promise<string | undefined> => {
  const { rows } = await client.query<{ dir: string; oid: number }>(
    `SELECT current_setting('data_directory') AS dir, oid FROM pg_database
     WHERE datname = current_database()`,
  );
  const dir = join(rows[0]!.dir, 'base', String(rows[0]!.oid));
  return access(dir).then(
    () => dir,
    () => undefined,
  );
};

it('PostgreSQL: intent_delete leaves the statement in no row and no file, and audit passes', () =>
  withDir((data) =>
    withDir(async (root) => {
      const store = storeUrl(schema);
      // statements of rare letters: compression and hex cannot hide or fake them
      const doomed = distinctStatement();
      const kept = distinctStatement();
      const said = (task_id: unknown, statement: string) => ({
        task_id,
        statement,
        basis: 'direct_statement',
        source_ref: { ...userSource, excerpt: statement.slice(0, 100) },
      });
      const app = await openAt(data, store);
      const c = await intentClient(app, [root]);
      let task_id: string;
      let goneId: unknown;
      try {
        task_id = String((await c.ok('intent_start_task')).task_id);
        const gone = await c.ok('intent_add_explicit', {
          ...said(task_id, doomed),
          request_id: 'r-doomed',
        });
        goneId = gone.claim_id;
        await c.ok('intent_add_explicit', said(task_id, kept));
        assert.equal(await keysOf(String(gone.claim_id)), 1, 'sealed under a key of its own');
        const deleted = await c.ok('intent_delete', {
          task_id,
          claim_id: gone.claim_id,
          confirmation: `DELETE CLAIM ${gone.claim_id}`,
          request_id: 'r-delete',
        });
        // the server's bytes are not this process's to read: the answer says so with null
        assert.deepEqual(deleted.verification, {
          view_clear: true,
          export_clear: true,
          bytes_clear: null,
          files_holding: [],
        });
        const graph = JSON.stringify(await c.ok('intent_export', { task_id, format: 'graph' }));
        assert.ok(!graph.includes(doomed) && graph.includes(kept));
        // crypto-shredding: the key that opened the statement's ciphertext is gone
        assert.equal(await keysOf(String(gone.claim_id)), 0);
      } finally {
        await c.close();
        await app.close();
      }
      const client = new pg.Client({ connectionString: testDatabaseUrl() });
      await client.connect();
      try {
        assert.deepEqual(await rowsHolding(client, doomed), []);
        // nor its id: rows name claims by ref (issue 33), a tombstone and an answer included
        assert.deepEqual(await rowsHolding(client, String(goneId)), []);
        // the search does find what is stored in plain text (the stream names hold the task's
        // ref); the task's id itself is in no row, only sealed
        assert.notDeepEqual(await rowsHolding(client, intentRef(task_id)), []);
        assert.deepEqual(await rowsHolding(client, task_id), []);
        assert.deepEqual(await filesHolding(data, [doomed]), [], 'nothing in the local data dir');
        const dir = await databaseDir(client);
        if (dir !== undefined) {
          await client.query('CHECKPOINT');
          assert.deepEqual(await filesHolding(dir, [doomed]), []);
        }
      } finally {
        await client.end();
      }
      await verifyAudit(data, store);
    }),
  ));
