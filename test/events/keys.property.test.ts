import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Keys, Prefix, be64, readBe64 } from '../../src/events/level/keys.js';

// Every position a key may hold, with the edges where the two 32-bit halves meet.
const EDGES = [0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 2, 2 ** 53 - 1];
const position = fc.oneof(fc.maxSafeNat(), fc.constantFrom(...EDGES));

// Two positions that are equal, adjacent, or unrelated, so every sign of a - b comes up.
const pair = fc.oneof(
  fc.tuple(position, position),
  position.map((a) => [a, a] as const),
  fc
    .tuple(position, fc.integer({ min: -3, max: 3 }))
    .map(([a, d]) => [a, Math.min(Math.max(a + d, 0), Number.MAX_SAFE_INTEGER)] as const),
);

// Names: printable graphemes, and any code point (NUL and controls included), and lone surrogates
// (which UTF-8 encodes as U+FFFD, three bytes, in both Buffer.byteLength and Buffer.from).
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const name = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), loneSurrogate),
  }),
);

const bigEndian = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const sign = (n: number): number => (n > 0 ? 1 : n < 0 ? -1 : 0);

describe('be64 / readBe64', () => {
  it('write the 8-byte big-endian form at the edges of the 32-bit halves', () => {
    assert.deepEqual([...be64(0)], [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual([...be64(2 ** 32 - 1)], [0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    assert.deepEqual([...be64(2 ** 32)], [0, 0, 0, 1, 0, 0, 0, 0]);
    assert.deepEqual([...be64(2 ** 53 - 1)], [0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    for (const n of EDGES) assert.equal(readBe64(be64(n)), n);
  });

  it('round-trip every integer in [0, MAX_SAFE_INTEGER], as the BigInt encoding does', () => {
    fc.assert(
      fc.property(position, (n) => {
        const bytes = be64(n);
        assert.equal(bytes.length, 8);
        assert.deepEqual(bytes, bigEndian(n));
        assert.equal(readBe64(bytes), n);
        assert.equal(readBe64(bigEndian(n)), n);
      }),
      { numRuns: 1000 },
    );
  });

  it('read at an offset inside a view that starts part-way into its ArrayBuffer', () => {
    fc.assert(
      fc.property(
        position,
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        fc.uint8Array({ maxLength: 16 }),
        fc.uint8Array({ maxLength: 16 }),
        (n, before, skipped, after) => {
          // before | skipped | be64(n) | after, in one fresh ArrayBuffer; the view skips `before`.
          const whole = new Uint8Array(before.length + skipped.length + 8 + after.length);
          whole.set(before, 0);
          whole.set(skipped, before.length);
          whole.set(be64(n), before.length + skipped.length);
          whole.set(after, before.length + skipped.length + 8);
          const view = whole.subarray(before.length);
          assert.ok(view.byteOffset > 0);
          assert.equal(readBe64(view, skipped.length), n);
          const asBuffer = Buffer.from(whole.buffer, before.length, view.length);
          assert.equal(readBe64(asBuffer, skipped.length), n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('order bytes as the numbers are ordered', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        assert.equal(sign(Buffer.compare(be64(a), be64(b))), sign(a - b));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('Keys', () => {
  const spec = (prefix: number, s: string, position: number) =>
    Buffer.concat([Buffer.of(prefix), Buffer.from(s), Buffer.of(0), be64(position)]);

  it('stream and project keys are prefix, UTF-8 name, NUL, big-endian position', () => {
    fc.assert(
      fc.property(name, position, (s, n) => {
        assert.deepEqual(Keys.stream(s, n), spec(0x73, s, n));
        assert.deepEqual(Keys.project(s, n), spec(0x70, s, n));
      }),
      { numRuns: 500 },
    );
  });

  it('order the keys of one stream or project by version', () => {
    fc.assert(
      fc.property(name, pair, (s, [a, b]) => {
        assert.equal(sign(Buffer.compare(Keys.stream(s, a), Keys.stream(s, b))), sign(a - b));
        assert.equal(sign(Buffer.compare(Keys.project(s, a), Keys.project(s, b))), sign(a - b));
      }),
      { numRuns: 500 },
    );
  });

  it('global keys are 0x67 and the big-endian position', () => {
    fc.assert(
      fc.property(position, (n) => {
        assert.deepEqual(Keys.global(n), Buffer.concat([Buffer.of(0x67), be64(n)]));
      }),
      { numRuns: 500 },
    );
  });

  it('no index reuses the prefixes of the retired head keys (0x68, 0x71)', () => {
    const prefixes: number[] = Object.values(Prefix);
    assert.equal(new Set(prefixes).size, prefixes.length);
    assert.ok(!prefixes.some((p) => p === 0x68 || p === 0x71));
  });
});
