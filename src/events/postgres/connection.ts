/**
 * Where the log lives: a PostgreSQL URL, optionally with `?schema=<name>` (default
 * `intentlog`). Several logs can share one database in separate schemas (tests do); every
 * instance that names the same database and schema shares one log.
 */
export type PgLocation = { connectionString: string; schema: string };

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,58}$/;

export const DEFAULT_SCHEMA = 'intentlog';

export const isPostgresUrl = (store: string | undefined): store is string =>
  store !== undefined && /^postgres(ql)?:\/\//.test(store);

export const parsePgLocation = (url: string): PgLocation => {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema))
    throw new TypeError(`schema must match ${SCHEMA_NAME.source}, got ${JSON.stringify(schema)}`);
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
};

/** The NOTIFY channel appends of one schema announce themselves on. */
export const channelOf = (schema: string): string => `il_${schema}`;
