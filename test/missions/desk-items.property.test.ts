import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { evolveDesk, initialDesk, type Desk } from '../../src/commands/missions/desk-state.js';
import { PersistentMap } from '../../src/commands/persistent-map.js';
import type { DeskEvent } from '../../src/commands/missions/desk-events.js';
import type { ModelTx } from '../../src/projections/projector.js';
import {
  assembleDesk,
  DeskKeys,
  foldDeskItems,
} from '../../src/projections/missions/desk-items.js';

/**
 * The missions read model keeps a desk per item (issue 31); put back together it must equal
 * the desk `evolveDesk` folds in one value, entry order included, whatever the events.
 */
const ids = fc.constantFrom('a', 'b', 'c', 'x/y', '10', '__proto__');
const data = (p: string, fields: Record<string, unknown>) => ({ project_id: p, ...fields });
const event = (p: string): fc.Arbitrary<DeskEvent> =>
  fc
    .tuple(fc.integer({ min: 0, max: 16 }), ids, ids, fc.nat(5), fc.string({ maxLength: 3 }))
    .map(([kind, id, other, n, text]) => {
      const make = (type: string, fields: Record<string, unknown>) =>
        ({ type, data: data(p, fields) }) as unknown as DeskEvent;
      switch (kind) {
        case 0:
          return make('mission.opened', {
            mission_id: id,
            contract: { objective: text },
            contract_hash: text,
            opened_at: text,
          });
        case 1:
          return make('mission.recontracted', {
            mission_id: id,
            contract: { objective: text },
            contract_hash: text,
            contract_version: n + 1,
          });
        case 2:
          return make('mission.closed', {
            mission_id: id,
            closure: 'completed',
            closed_at: text,
            outcome_summary: text,
            evidence: {},
          });
        case 3:
          return make('lease.granted', { session_id: id, mission_id: other, expires_at: text });
        case 4:
          return make('lease.revoked', { session_ids: [id, other], reason: 'stop' });
        case 5:
          return make('owner_challenge.issued', {
            challenge_id: `${id}${n}`,
            fingerprint: other,
            operation: text,
          });
        case 6:
          return make('owner_challenge.code_rejected', {
            challenge_id: `${id}${n}`,
            attempts_remaining: n,
          });
        case 7:
          return make('owner_challenge.cancelled', {
            challenge_id: `${id}${n}`,
            reason: 'attempts_exhausted',
          });
        case 8:
          return make('owner_challenge.consumed', { challenge_id: `${id}${n}` });
        case 9:
          return make('next_step.proposed', { content: text, content_hash: id });
        case 10:
          return make('next_step.accepted', { content: text, content_hash: id, accepted_at: text });
        case 11:
          return make('focus_lane.set', {
            focus_id: id,
            label: text,
            status: ['ACTIVE', 'PAUSED', 'DONE'][n % 3],
          });
        case 12:
          return make('inbox_item.parked', { item_id: id, text, tags: [], source: null });
        case 13:
          return make('intake.captured', { intake_id: id, raw: text });
        case 14:
          return make('intake.distilled', { intake_id: id });
        case 15:
          return make('day.stopped', { day: text, stopped_at: text });
        default:
          return make(
            ['learning_block.started', 'learning_block.completed', 'learning_block.abandoned'][
              n % 3
            ]!,
            {
              block_id: id,
              topic: text,
              intended_output_path: text,
              started_at: text,
              minimum_completion_at: text,
              credit_delta: n,
              completed_at: text,
              abandoned_at: text,
            },
          );
      }
    });

/** The desk as plain data: each map as its entries, in order (a map compares by them alone). */
const plain = (desk: Desk): unknown =>
  Object.fromEntries(
    Object.entries(desk).map(([field, value]) => [
      field,
      value instanceof PersistentMap ? [...value.entries()] : value,
    ]),
  );

/** A model keyspace in memory: a copy on every read, as a store decodes one. */
const memoryTx = () => {
  const rows = new Map<string, unknown>();
  const tx: ModelTx = {
    get: async <T>(key: string) =>
      rows.has(key) ? (structuredClone(rows.get(key)) as T) : undefined,
    put: (key, value) => void rows.set(key, structuredClone(value)),
    del: (key) => void rows.delete(key),
  };
  const range = (prefix: string): [string, unknown][] =>
    [...rows.keys()]
      .filter((k) => k.startsWith(prefix))
      .sort()
      .map((k) => [k, structuredClone(rows.get(k))]);
  return { tx, range, rows };
};

describe('the missions desk per item', () => {
  it('puts back together the desk evolveDesk folds, in order, and writes only what changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(event('p1'), event('p/2')), { maxLength: 60 }),
        async (events) => {
          const store = memoryTx();
          const folded = new Map<string, ReturnType<typeof initialDesk>>();
          let position = 0;
          for (const e of events) {
            position += 1;
            await foldDeskItems(store.tx, e, position);
            const p = e.data.project_id;
            folded.set(p, evolveDesk(folded.get(p) ?? initialDesk(), e));
          }
          for (const p of ['p1', 'p/2']) {
            const want = folded.get(p) ?? initialDesk();
            const got = assembleDesk(DeskKeys.all(p), store.range(DeskKeys.all(p)));
            assert.deepStrictEqual(plain(got), plain(want));
            assert.equal(
              JSON.stringify(plain(got)),
              JSON.stringify(plain(want)),
              'entries in the same order',
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an intake captured again keeps the place it was first added at (CI seed 34285017)', async () => {
    const store = memoryTx();
    const captured = (id: string) =>
      ({
        type: 'intake.captured',
        data: { project_id: 'p', intake_id: id, raw: id },
      }) as unknown as DeskEvent;
    const events = ['b', 'a', 'b'].map(captured);
    let desk = initialDesk();
    for (const [i, e] of events.entries()) {
      await foldDeskItems(store.tx, e, i + 1);
      desk = evolveDesk(desk, e);
    }
    const got = assembleDesk(DeskKeys.all('p'), store.range(DeskKeys.all('p')));
    assert.deepEqual([...got.intakes.keys()], ['b', 'a']);
    assert.equal(JSON.stringify(plain(got)), JSON.stringify(plain(desk)));
  });

  it('a lease granted on a desk with many sessions writes that lease alone', async () => {
    const store = memoryTx();
    const writes: string[] = [];
    const tx: ModelTx = { ...store.tx, put: (k, v) => (writes.push(k), store.tx.put(k, v)) };
    const lease = (i: number) =>
      ({
        type: 'lease.granted',
        data: { project_id: 'p', session_id: `s${i}`, mission_id: 'm' },
      }) as unknown as DeskEvent;
    for (let i = 0; i < 50; i++) await foldDeskItems(tx, lease(i), i + 1);
    writes.length = 0;
    await foldDeskItems(tx, lease(50), 51);
    assert.deepEqual(writes, [DeskKeys.item('p', 'leases', 's50')]);
  });
});
