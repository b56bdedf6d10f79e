export { openPostgresEventLog, type PgEventLogOptions } from './pg-event-log.js';
export { isPostgresUrl, parsePgLocation, DEFAULT_SCHEMA } from './connection.js';
export { SCHEMA_VERSION } from './schema.js';
