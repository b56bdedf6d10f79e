import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  canonicalJson,
  chainHash,
  MalformedTextError,
  sha256Hex,
  StoredRecord,
} from '../../src/events/index.js';

/**
 * The specification: the previous `canonicalJson`, which hash-chain links and idempotency
 * fingerprints already stored were computed with. The fast rewrite must give the same bytes.
 * Text that is not well-formed Unicode (a lone surrogate) has no stored form: it is refused.
 */
const string = (text: string): string => {
  if (/\p{Surrogate}/u.test(text)) throw new MalformedTextError();
  return JSON.stringify(text);
};
const reference = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = (k: string) => {
      if (k === '__proto__') throw new MalformedTextError();
      return string(k);
    };
    return `{${entries.map(([k, v]) => `${key(k)}:${reference(v)}`).join(',')}}`;
  }
  return typeof value === 'string' ? string(value) : JSON.stringify(value);
};

/** The result, or 'malformed' when the text was refused (both sides must agree on which). */
const outcome = (compute: () => string): string => {
  try {
    return compute();
  } catch (error) {
    if (error instanceof MalformedTextError) return 'malformed';
    throw error;
  }
};

// One unit of a string: any code point, printable graphemes, C0 controls, lone surrogates
// (high and low halves), and the characters JSON.stringify escapes or that often trip encoders.
const unit = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), weight: 2 },
  {
    arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom('"', '\\', '/', '\u007f', '\u2028', '\u2029', '\ufeff', '😀'),
    weight: 2,
  },
);
const text = fc.string({ unit, maxLength: 8 });

// Keys: the same strings, plus the empty key, integer-like keys (which Object.keys lists first,
// in numeric order, whatever the insertion order), and names that shadow Object.prototype.
const key = fc.oneof(
  text,
  fc.constantFrom(
    '',
    '10',
    '2',
    '02',
    '1',
    '-1',
    '1.5',
    '4294967294',
    '4294967295',
    '__proto__',
    'constructor',
    'toString',
    'a',
    'B',
    'é',
    'e\u0301',
  ),
  fc.nat({ max: 20 }).map(String),
);

// Bytes: whole arrays, Buffers (small ones are slices of Node's pool), and views into a larger
// ArrayBuffer that start past its first byte.
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 24 }),
  fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b)),
  fc
    .tuple(fc.uint8Array({ minLength: 2, maxLength: 40 }), fc.nat(), fc.nat())
    .map(([whole, a, b]) => {
      const start = 1 + (a % (whole.length - 1));
      const end = start + (b % (whole.length - start + 1));
      return whole.subarray(start, end);
    }),
);

const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 2, stringUnit: unit }),
  bytes,
  fc.bigInt(),
  fc.constant(undefined),
  fc.double(),
  text,
);

const { value } = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: Record<string, unknown>;
}>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4, depthIdentifier: 'canonical' },
    leaf,
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 5, depthIdentifier: 'canonical' }),
  object: fc.dictionary(key, fc.option(tie('value'), { nil: undefined, freq: 4 }), {
    maxKeys: 6,
    depthIdentifier: 'canonical',
  }),
}));

describe('canonicalJson', () => {
  it('matches the reference on hand-picked edge cases (pins the reference itself)', () => {
    const whole = Uint8Array.of(0xff, 1, 2, 3, 0xfe);
    const cases: [unknown, string][] = [
      [undefined, 'null'],
      [{ b: undefined, 10: 1, 2: 2, '': [undefined, 1n] }, '{"":[null,1],"10":1,"2":2}'],
      [whole.subarray(1, 4), '"AQID"'],
      [{ '\u0000': '\u2028', '😀': 'a\u0000b' }, '{"\\u0000":"\u2028","😀":"a\\u0000b"}'],
      [[NaN, -0, Infinity, -12345678901234567890n], '[null,0,null,-12345678901234567890]'],
    ];
    for (const [input, expected] of cases) {
      assert.equal(reference(input), expected);
      assert.equal(canonicalJson(input), expected);
    }
  });

  it('refuses a lone surrogate, high or low, in a value or a key', () => {
    for (const input of ['a\ud800b', '\udfff', { '\ud800': 1 }, [{ x: ['ok', 'x\udc00'] }]])
      assert.throws(() => canonicalJson(input), MalformedTextError);
    assert.equal(canonicalJson({ skipped: undefined, ['\ud800']: undefined }), '{}');
  });

  it('gives byte for byte the output of the reference definition', () => {
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(
          outcome(() => canonicalJson(v)),
          outcome(() => reference(v)),
        );
      }),
      { numRuns: 500 },
    );
  });
});

// The StoredRecord members, in the schema's declaration order.
const KNOWN = [
  'event_id',
  'type',
  'schema_version',
  'data',
  'sealed',
  'project_id',
  'actor_id',
  'actor_role',
  'aggregate_type',
  'aggregate_id',
  'correlation_id',
  'causation_event_id',
  'created_at',
  'stream_name',
  'stream_version',
  'global_position',
  'cursor',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof StoredRecord)[];
type Known = (typeof KNOWN)[number];
const EXTRA = -1;

const position = fc.oneof(
  fc.integer({ min: 1, max: 1000 }),
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
);
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const nullableText = fc.option(text, { nil: null });

const envelope = fc.record({
  event_id: text,
  type: text,
  schema_version: fc.nat(),
  data: fc.dictionary(key, fc.option(value, { nil: undefined, freq: 4 }), { maxKeys: 5 }),
  sealed: fc.record({ subject: text, iv: bytes, tag: bytes, ciphertext: bytes }),
  project_id: text,
  actor_id: text,
  actor_role: text,
  aggregate_type: text,
  aggregate_id: text,
  correlation_id: nullableText,
  causation_event_id: nullableText,
  created_at: fc.oneof(
    text,
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  ),
  stream_name: text,
  stream_version: position,
  global_position: position,
  cursor: position,
  prev_hash: fc.oneof(hex64, text),
  hash: hex64,
});

// How the stored envelope is bent before hashing. Each bend is absent half the time or more,
// so plain envelopes (the fast path) and bent ones (the general path) both come up often.
const bends = fc.record({
  content: fc.constantFrom('data', 'sealed', 'both'),
  withHash: fc.boolean(),
  extra: fc.option(
    fc.tuple(
      key.filter((k) => !(KNOWN as readonly string[]).includes(k)),
      fc.option(value, { nil: undefined, freq: 4 }),
    ),
    { nil: undefined, freq: 2 },
  ),
  madeUndefined: fc.option(fc.subarray([...KNOWN], { maxLength: 3 }), { nil: [], freq: 2 }),
  deleted: fc.option(fc.subarray([...KNOWN], { maxLength: 3 }), { nil: [], freq: 2 }),
  order: fc.option(fc.shuffledSubarray([EXTRA, ...KNOWN.keys()], { minLength: KNOWN.length + 1 }), {
    nil: undefined,
    freq: 2,
  }),
});

/** Lone surrogates replaced, deep: most envelopes must be storable for the hash to be compared. */
const storable = (v: unknown): unknown => {
  if (typeof v === 'string') return v.replace(/\p{Surrogate}/gu, '?');
  if (Array.isArray(v)) return v.map(storable);
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return v;
  const out: Record<string, unknown> = {};
  for (const [k, m] of Object.entries(v))
    Object.defineProperty(out, storable(k) as string, {
      value: storable(m),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
};
// four in five envelopes are storable; the rest keep their lone surrogates and must be refused
const someEnvelope = fc
  .tuple(envelope, fc.nat({ max: 4 }))
  .map(([e, n]) => (n > 0 ? (storable(e) as typeof e) : e));

type Bends = typeof bends extends fc.Arbitrary<infer B> ? B : never;

const bend = (base: Record<Known, unknown>, b: Bends): Record<string, unknown> => {
  const members = new Map<string, unknown>(Object.entries(base));
  if (b.content === 'data') members.delete('sealed');
  if (b.content === 'sealed') members.delete('data');
  if (!b.withHash) members.delete('hash');
  for (const k of b.madeUndefined) members.set(k, undefined);
  for (const k of b.deleted) members.delete(k);
  const slots: string[] = (b.order ?? [...KNOWN.keys(), EXTRA]).map((i) =>
    i === EXTRA ? (b.extra?.[0] ?? '') : KNOWN[i]!,
  );
  const record: Record<string, unknown> = {};
  for (const slot of slots) {
    const isExtra = b.extra !== undefined && slot === b.extra[0];
    if (!isExtra && !members.has(slot)) continue;
    // defineProperty, so that an extra member named "__proto__" is an own member like any other.
    Object.defineProperty(record, slot, {
      value: isExtra ? b.extra![1] : members.get(slot),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
};

const referenceChainHash = (record: Record<string, unknown>): string => {
  const { hash: _hash, ...withoutHash } = record;
  const linked = `${String(record.prev_hash)}\n${reference(withoutHash)}`;
  return createHash('sha256').update(linked).digest('hex');
};

describe('chainHash', () => {
  it('lists every StoredRecord member (so a new envelope member is not missed here)', () => {
    assert.deepEqual([...KNOWN].sort(), Object.keys(StoredRecord.shape).sort());
  });

  it('equals SHA-256 of prev_hash and the reference canonical envelope, on both paths', () => {
    let plain = 0;
    let bent = 0;
    let refused = 0;
    fc.assert(
      fc.property(someEnvelope, bends, (base, b) => {
        const record = bend(base, b);
        const keys = Object.keys(record);
        const isPlain =
          keys.every((k) => (KNOWN as readonly string[]).includes(k)) &&
          keys.every((k) => k === 'hash' || record[k] !== undefined);
        if (isPlain) plain++;
        else bent++;
        const expected = outcome(() => referenceChainHash(record));
        if (expected === 'malformed') refused++;
        assert.equal(
          outcome(() =>
            sha256Hex(`${String(record.prev_hash)}\n${reference({ ...record, hash: undefined })}`),
          ),
          expected,
        );
        assert.equal(
          outcome(() => chainHash(record as unknown as StoredRecord)),
          expected,
        );
      }),
      { numRuns: 500 },
    );
    // Both the fast path (exactly the known members) and the general one were exercised.
    assert.ok(plain >= 50, `only ${plain} plain envelopes`);
    assert.ok(bent >= 50, `only ${bent} bent envelopes`);
    assert.ok(refused >= 20 && refused <= 250, `${refused} of 500 envelopes refused`);
  });
});
