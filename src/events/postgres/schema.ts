import type pg from 'pg';

/**
 * The store's schema, created and migrated by the store itself. Each migration runs once, in
 * order, in one transaction under an advisory lock, so instances starting together on one
 * database do not race; `schema_version` records what has been applied. A database migrated
 * by a newer intentlog than this one is refused rather than misread.
 */
const migrations: readonly ((s: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.log_head (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      position bigint NOT NULL,
      shreds bigint NOT NULL
    );
    INSERT INTO ${s}.log_head (position, shreds) VALUES (0, 0);
    CREATE TABLE ${s}.events (
      global_position bigint PRIMARY KEY,
      project_id text NOT NULL,
      cursor bigint NOT NULL,
      stream_name text NOT NULL,
      stream_version bigint NOT NULL,
      event_id text NOT NULL UNIQUE,
      type text NOT NULL,
      seal_subject text,
      record bytea NOT NULL,
      UNIQUE (project_id, cursor),
      UNIQUE (stream_name, stream_version)
    );
    CREATE TABLE ${s}.streams (stream_name text PRIMARY KEY, version bigint NOT NULL);
    CREATE TABLE ${s}.projects (
      project_id text PRIMARY KEY,
      cursor bigint NOT NULL,
      hash text NOT NULL
    );
    CREATE TABLE ${s}.idempotency (
      scope text PRIMARY KEY,
      fingerprint text NOT NULL,
      response bytea NOT NULL,
      position bigint NOT NULL
    );
    CREATE TABLE ${s}.appends (
      append_id text PRIMARY KEY,
      next_version bigint NOT NULL,
      created_new boolean NOT NULL,
      last_position bigint NOT NULL,
      last_cursor bigint NOT NULL
    );
    CREATE TABLE ${s}.content_keys (subject text PRIMARY KEY, key bytea NOT NULL);
  `,
  // Multi-stream appends: an appendId's whole result; an idempotency response sealed under the
  // subjects its append sealed content under (then `response` holds null); a count of writes on
  // the head row, so an append of no events (an idempotency record alone) changes it too.
  (s) => `
    ALTER TABLE ${s}.appends ADD COLUMN result bytea;
    ALTER TABLE ${s}.idempotency ADD COLUMN sealed bytea;
    ALTER TABLE ${s}.log_head ADD COLUMN writes bigint NOT NULL DEFAULT 0;
  `,
  // Aggregate snapshots (snapshots/), a cache shared by every instance: one row per fold and
  // stream, the shred count it was folded under, and the one key sealed states are encrypted
  // under (a shred deletes it with every snapshot).
  (s) => `
    CREATE TABLE ${s}.snapshots (
      name text NOT NULL,
      stream_name text NOT NULL,
      at bigint NOT NULL,
      version int NOT NULL,
      shreds text,
      sealed boolean NOT NULL,
      body bytea NOT NULL,
      PRIMARY KEY (name, stream_name)
    );
    CREATE TABLE ${s}.snapshot_key (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      key bytea NOT NULL
    );
  `,
];

export const SCHEMA_VERSION = migrations.length;

export const migrate = async (client: pg.ClientBase, schema: string): Promise<void> => {
  const s = `"${schema}"`;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`intentlog:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (
      version int PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT max(version) AS v FROM ${s}.schema_version`,
    );
    const current = rows[0]?.v ?? 0;
    if (current > SCHEMA_VERSION)
      throw new Error(
        `schema ${schema} is at version ${current}; this intentlog knows up to ${SCHEMA_VERSION}`,
      );
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      await client.query(migrations[v - 1]!(s));
      await client.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [v]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
};
