import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The database run.mjs made for this run (PostgreSQL tests are skipped without one). */
export const testDatabaseUrl = (): string => {
  const url = process.env.INTENTLOG_TEST_PG;
  if (!url)
    throw new Error('INTENTLOG_TEST_PG is not set: run PostgreSQL tests through test/run.mjs');
  return url;
};

/** A schema name no other test uses: each test gets an empty log of its own. */
export const freshSchema = (prefix: string): string =>
  `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;

export const storeUrl = (schema: string): string => {
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('schema', schema);
  return url.toString();
};

export const dropSchema = async (schema: string): Promise<void> => {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
};
