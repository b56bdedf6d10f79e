/**
 * The LevelDB keyspace, one prefix byte per index. Positions are big-endian so byte order is
 * numeric order; stream names and project ids end with a NUL, which they may not contain.
 */
export const Prefix = {
  global: 0x67, // g<pos>                  → record
  stream: 0x73, // s<stream>\0<version>    → pos
  project: 0x70, // p<project>\0<cursor>   → pos
  idempotency: 0x69, // i<scope>           → IdempotencyRecord
  append: 0x61, // a<appendId>             → LogAppendResult
  key: 0x6b, // k<subject>                 → 32-byte content key
  model: 0x6d, // m<key>                   → read model value
  streamHead: 0x68, // h<stream>           → version of its last event
  projectHead: 0x71, // q<project>         → ProjectHead {cursor, hash}
} as const;

export const be64 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
export const readBe64 = (b: Uint8Array, offset = 0): number =>
  Number(Buffer.from(b.buffer, b.byteOffset, b.byteLength).readBigUInt64BE(offset));

const text = (prefix: number, s: string): Buffer =>
  Buffer.concat([Buffer.of(prefix), Buffer.from(s)]);

export const assertNoNul = (what: string, s: string): void => {
  if (s.includes('\u0000')) throw new TypeError(`${what} may not contain NUL`);
};

export const Keys = {
  global: (pos: number) => Buffer.concat([Buffer.of(Prefix.global), be64(pos)]),
  globalRange: (after: number) => ({
    gt: Keys.global(after),
    lt: Buffer.of(Prefix.global + 1),
  }),
  stream: (name: string, version: number) =>
    Buffer.concat([text(Prefix.stream, name), Buffer.of(0), be64(version)]),
  streamRange: (name: string, from = 1, to = Number.MAX_SAFE_INTEGER) => ({
    gte: Keys.stream(name, from),
    lte: Keys.stream(name, to),
  }),
  project: (id: string, cursor: number) =>
    Buffer.concat([text(Prefix.project, id), Buffer.of(0), be64(cursor)]),
  projectRange: (id: string, after: number) => ({
    gt: Keys.project(id, after),
    lte: Keys.project(id, Number.MAX_SAFE_INTEGER),
  }),
  streamHead: (name: string) => text(Prefix.streamHead, name),
  projectHead: (id: string) => text(Prefix.projectHead, id),
  idempotency: (scope: string) => text(Prefix.idempotency, scope),
  append: (id: string) => text(Prefix.append, id),
  key: (subject: string) => text(Prefix.key, subject),
  model: (key: string) => text(Prefix.model, key),
  modelPrefix: (prefix: string) => ({
    gte: text(Prefix.model, prefix),
    lt: Buffer.concat([text(Prefix.model, prefix), Buffer.of(0xff)]),
  }),
};
