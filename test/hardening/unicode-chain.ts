import { strict as assert } from 'node:assert';
import type { Event } from '@event-driven-io/emmett';
import fc from 'fast-check';
import {
  canonicalJson,
  MalformedTextError,
  verifyChain,
  GENESIS_HASH,
  type EventLog,
  type StoredRecord,
} from '../../src/events/index.js';
import { allEvents, allRaw, stream, type OpenStore } from '../conformance/harness.js';

// Any UTF-16 unit (lone surrogates included), astral graphemes, NUL and the C0 controls.
const unit = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.constantFrom('\u0000', '\n', '\u007f', '😀', '\u{10ffff}'), weight: 2 },
  {
    arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    weight: 1,
  },
);
const text = fc.string({ unit, maxLength: 12 });
const key = fc.oneof({ arbitrary: text, weight: 9 }, fc.constant('__proto__'));
const data = fc.dictionary(
  key,
  fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer(), fc.constant(null)),
  { maxKeys: 4 },
);
const append = fc.record({
  project: fc.constantFrom('p1', 'p2'),
  events: fc.array(data, { minLength: 1, maxLength: 3 }),
  sealed: fc.boolean(),
});

const isWellFormed = (value: unknown): boolean => {
  if (typeof value === 'string') return !/\p{Surrogate}/u.test(value);
  if (Array.isArray(value)) return value.every(isWellFormed);
  if (value && typeof value === 'object')
    return Object.entries(value).every(
      ([k, v]) => k !== '__proto__' && isWellFormed(k) && isWellFormed(v),
    );
  return true;
};

/**
 * Issue 19, defect 1: arbitrary Unicode through a store. Every append either is refused with
 * MalformedTextError (exactly when its text has a lone surrogate) and writes nothing, or is
 * stored as sent; at the end every project's chain verifies and reads back the accepted data.
 */
export const unicodeChainProperty = async (open: OpenStore, numRuns = 25): Promise<void> => {
  await fc.assert(
    fc.asyncProperty(fc.array(append, { minLength: 1, maxLength: 8 }), async (appends) => {
      const store = await open();
      try {
        await checkAppends(store.log, appends);
      } finally {
        await store.close();
      }
    }),
    { numRuns },
  );
};

type Append = typeof append extends fc.Arbitrary<infer A> ? A : never;

const checkAppends = async (log: EventLog, appends: Append[]): Promise<void> => {
  const accepted: unknown[] = [];
  for (const [i, a] of appends.entries()) {
    const events = a.events.map(
      (d): Event =>
        (a.sealed
          ? { type: 'thing.said', data: d, metadata: { seal: `subject-${i}` } }
          : { type: 'thing.happened', data: d }) as Event,
    );
    const ok = a.events.every(isWellFormed);
    const head = await log.head();
    try {
      await log.appendToStream(stream(a.project, `s${i}`), events, { meta: META });
      assert.ok(ok, 'an append with a lone surrogate was accepted');
      accepted.push(...a.events);
    } catch (error) {
      if (!(error instanceof Error) || (error as { code?: string }).code !== 'malformed_text')
        throw error;
      assert.ok(error instanceof MalformedTextError && !ok, 'well-formed text was refused');
      assert.equal(await log.head(), head, 'a refused append wrote something');
    }
  }
  const raw = await allRaw(log);
  for (const project of ['p1', 'p2']) {
    const chain = raw.filter((r: StoredRecord) => r.project_id === project);
    assert.equal(verifyChain(chain, GENESIS_HASH), undefined, `chain of ${project}`);
  }
  const read = (await allEvents(log)).map((e) => e.data);
  assert.equal(canonicalJson(read), canonicalJson(accepted));
};

const META = {
  actor_id: 'tester',
  actor_role: 'PO',
  correlation_id: null,
  causation_event_id: null,
};
