import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { StateCodec, UnsnapshottableError } from '../../src/events/index.js';
import { PersistentMap } from '../../src/commands/persistent-map.js';
import '../../src/commands/snapshots.js';

const roundTrip = <T>(value: T): T => StateCodec.decode<T>(StateCodec.encode(value));

/** The leaves and shapes a decider's state is made of. */
const leaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.uint8Array().map((b) => new Uint8Array(b)),
  fc.uint8Array().map((b) => Buffer.from(b)),
  fc.date({ noInvalidDate: true }),
);
const { state } = fc.letrec((tie) => ({
  state: fc.oneof(
    { depthSize: 'small' },
    leaf,
    tie('array'),
    tie('object'),
    tie('map'),
    tie('set'),
    tie('pmap'),
  ),
  array: fc.array(tie('state'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constant('\u0000')), tie('state'), { maxKeys: 4 }),
  map: fc
    .array(fc.tuple(fc.oneof(fc.string(), fc.integer()), tie('state')), { maxLength: 4 })
    .map((e) => new Map(e)),
  set: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 4 }).map((e) => new Set(e)),
  pmap: fc
    .array(fc.tuple(fc.string(), tie('state')), { maxLength: 4 })
    .map((e) => e.reduce((m, [k, v]) => m.with(k, v ?? 0), PersistentMap.empty<string, unknown>())),
}));

/** Deep equality that reads a persistent map as the entries it holds. */
const plain = (value: unknown): unknown => {
  if (value instanceof PersistentMap)
    return { pmap: [...value.entries()].map(([k, v]) => [k, plain(v)]) };
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (
    value &&
    typeof value === 'object' &&
    !(value instanceof Uint8Array) &&
    !(value instanceof Date)
  )
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
};

describe('StateCodec: what a snapshot stores of a folded state', () => {
  it('gives back a deep-equal state, prototypes included, for every shape a state holds', () => {
    fc.assert(
      fc.property(state, (value) => {
        assert.deepStrictEqual(plain(roundTrip(value)), plain(value));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a Buffer a Buffer and a Uint8Array a Uint8Array, and undefined members', () => {
    const back = roundTrip({ b: Buffer.from('ab'), u: Uint8Array.of(1, 2), gone: undefined });
    assert.equal(Buffer.isBuffer(back.b), true);
    assert.equal(Buffer.isBuffer(back.u), false);
    assert.equal('gone' in back, true);
  });

  it('refuses a function or an unregistered class instead of storing it lossy', () => {
    class Opaque {}
    assert.throws(() => StateCodec.encode({ f: () => 1 }), UnsnapshottableError);
    assert.throws(() => StateCodec.encode({ o: new Opaque() }), UnsnapshottableError);
  });
});
