/**
 * msgpack as the store and the writer socket write it. Self-describing maps (no shared record
 * structures): stored bytes must decode in any process, with no structure table to keep in step.
 * One place, so that a process that loads msgpackr's pure-JS build speaks exactly what the
 * store's codec (codec.ts, with the native decoder) speaks.
 */
export const PACK_OPTIONS = { useRecords: false, moreTypes: false } as const;
