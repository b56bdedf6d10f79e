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
  snapshot: 0x78, // x<name>\0<stream>      → aggregate snapshot; x alone → their key
  // 0x68 (h<stream>) and 0x71 (q<project>) held stream and project heads until heads came to
  // be derived from the indexes; data dirs written before may still hold them: never reuse.
} as const;

// Positions stay below 2^53: two 32-bit halves, no BigInt (every append writes several).
const writeBe64 = (b: Buffer, n: number, offset: number): void => {
  b.writeUInt32BE(Math.floor(n / 0x1_0000_0000), offset);
  b.writeUInt32BE(n >>> 0, offset + 4);
};

export const be64 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(8);
  writeBe64(b, n, 0);
  return b;
};
export const readBe64 = (b: Uint8Array, offset = 0): number => {
  const view = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return view.readUInt32BE(offset) * 0x1_0000_0000 + view.readUInt32BE(offset + 4);
};

/** `prefix`, the UTF-8 of `s`, and with a position: NUL and the position (one allocation). */
const text = (prefix: number, s: string, position?: number): Buffer => {
  const length = Buffer.byteLength(s);
  const b = Buffer.allocUnsafe(1 + length + (position === undefined ? 0 : 9));
  b[0] = prefix;
  b.write(s, 1);
  if (position !== undefined) {
    b[1 + length] = 0;
    writeBe64(b, position, 2 + length);
  }
  return b;
};

export const assertNoNul = (what: string, s: string): void => {
  if (s.includes('\u0000')) throw new TypeError(`${what} may not contain NUL`);
};

export const Keys = {
  global: (pos: number) => {
    const b = Buffer.allocUnsafe(9);
    b[0] = Prefix.global;
    writeBe64(b, pos, 1);
    return b;
  },
  globalRange: (after: number) => ({
    gt: Keys.global(after),
    lt: Buffer.of(Prefix.global + 1),
  }),
  stream: (name: string, version: number) => text(Prefix.stream, name, version),
  streamRange: (name: string, from = 1, to = Number.MAX_SAFE_INTEGER) => ({
    gte: Keys.stream(name, from),
    lte: Keys.stream(name, to),
  }),
  project: (id: string, cursor: number) => text(Prefix.project, id, cursor),
  projectRange: (id: string, after: number) => ({
    gt: Keys.project(id, after),
    lte: Keys.project(id, Number.MAX_SAFE_INTEGER),
  }),
  idempotency: (scope: string) => text(Prefix.idempotency, scope),
  append: (id: string) => text(Prefix.append, id),
  key: (subject: string) => text(Prefix.key, subject),
  model: (key: string) => text(Prefix.model, key),
  snapshot: (name: string, stream: string) => text(Prefix.snapshot, `${name}\u0000${stream}`),
  snapshotKey: () => Buffer.of(Prefix.snapshot),
  /** every snapshot and their key */
  snapshotRange: () => ({ gte: Buffer.of(Prefix.snapshot), lt: Buffer.of(Prefix.snapshot + 1) }),
  modelPrefix: (prefix: string) => ({
    gte: text(Prefix.model, prefix),
    lt: Buffer.concat([text(Prefix.model, prefix), Buffer.of(0xff)]),
  }),
};
