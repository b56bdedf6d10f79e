import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { openCatalog, type EventLog } from '../../src/events/index.js';
import {
  isPostgresUrl,
  openPostgresEventLog,
  parsePgLocation,
  SCHEMA_VERSION,
} from '../../src/events/postgres/index.js';
import { dropSchema, freshSchema, storeUrl, testDatabaseUrl } from './pg-test-db.js';

/** What only the PostgreSQL store has: its schema, its URL, its head row. */
describe('PostgreSQL store specifics', () => {
  const schemas: string[] = [];
  const schema = () => {
    const name = freshSchema('pgstore');
    schemas.push(name);
    return name;
  };
  const sql = async <T extends pg.QueryResultRow>(text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  after(async () => {
    for (const name of schemas) await dropSchema(name);
  });

  it('recognises its URLs and takes the schema from ?schema=', () => {
    assert.equal(isPostgresUrl('postgres://h/db'), true);
    assert.equal(isPostgresUrl('postgresql://h/db'), true);
    assert.equal(isPostgresUrl('memory'), false);
    assert.equal(isPostgresUrl(undefined), false);
    assert.deepEqual(parsePgLocation('postgres://u@h:5432/db?schema=team_a&sslmode=disable'), {
      connectionString: 'postgres://u@h:5432/db?sslmode=disable',
      schema: 'team_a',
    });
    assert.equal(parsePgLocation('postgres://h/db').schema, 'intentlog');
    assert.throws(() => parsePgLocation('postgres://h/db?schema=Bad"name'), TypeError);
  });

  it('creates its schema once, records the version, and refuses a newer one', async () => {
    const name = schema();
    const url = storeUrl(name);
    await (await openPostgresEventLog(url, openCatalog)).close();
    await Promise.all(
      [1, 2, 3].map(async () => (await openPostgresEventLog(url, openCatalog)).close()),
    );
    const versions = await sql<{ version: number }>(
      `SELECT version FROM "${name}".schema_version ORDER BY version`,
    );
    assert.deepEqual(
      versions.map((v) => v.version),
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
    await sql(`INSERT INTO "${name}".schema_version (version) VALUES (${SCHEMA_VERSION + 1})`);
    await assert.rejects(openPostgresEventLog(url, openCatalog), /knows up to/);
  });

  it('a shred changes the head row, so appends planned before it plan again', async () => {
    const name = schema();
    const log = await openPostgresEventLog(storeUrl(name), openCatalog);
    try {
      const head = () =>
        sql<{ position: string; shreds: string }>(`SELECT * FROM "${name}".log_head`);
      const [before] = await head();
      await log.shred('nobody');
      const [after] = await head();
      assert.equal(after!.position, before!.position);
      assert.equal(Number(after!.shreds), Number(before!.shreds) + 1);
    } finally {
      await log.close();
    }
  });

  it("live() carries another instance's events by NOTIFY, and by polling while not listening", async () => {
    const name = schema();
    const writer = await openPostgresEventLog(storeUrl(name), openCatalog);
    const byNotify = await openPostgresEventLog(storeUrl(name), openCatalog, { pollMs: 600_000 });
    const byPoll = await openPostgresEventLog(storeUrl(name), openCatalog, { pollMs: 100 });
    const listening = async (n: number) => {
      const query = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN "il_${name}"'`;
      while ((await sql<{ n: number }>(query))[0]!.n < n) await sleep(20);
      await sleep(50); // the wake that follows LISTEN has read the log
    };
    const seen = (log: EventLog, n: number) =>
      firstValueFrom(
        log.live().pipe(
          filter((e) => e.data.n === n),
          timeout(20_000),
        ),
      );
    try {
      // the poll is ten minutes away: only the notification can deliver this
      const notified = seen(byNotify, 1);
      await listening(1); // connected on the first subscription, and caught up
      await writer.appendToStream('thing:p:a', [{ type: 'thing.happened', data: { n: 1 } }]);
      assert.equal((await notified).global_position, 1);

      const polled = seen(byPoll, 2);
      await listening(2);
      await sql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE query = 'LISTEN "il_${name}"' AND pid <> pg_backend_pid()`,
      );
      await writer.appendToStream('thing:p:a', [{ type: 'thing.happened', data: { n: 2 } }]);
      assert.equal((await polled).global_position, 2);
    } finally {
      await Promise.all([writer.close(), byNotify.close(), byPoll.close()]);
    }
  });
});
