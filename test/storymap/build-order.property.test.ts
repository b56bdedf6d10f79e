import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isDomainError } from '../../src/commands/errors.js';
import { decideUpdateStories } from '../../src/commands/storymap/update-stories.js';
import { emptyRow } from '../../src/projections/storymap/build-order.js';
import { buildOrder, type OrderRow } from '../../src/projections/storymap/order.js';
import { baseMap, editor, mapOf, storyCreated, storyOf } from './fixture.js';

const STATUSES = ['todo', 'in_progress', 'done', 'approved', 'needs_rework'] as const;

const row = (i: number, over: Partial<OrderRow>): OrderRow => ({
  ...emptyRow(`s${i}`),
  key: `PB-${i}`,
  number: i,
  title: `Story ${i}`,
  activity: 'A',
  version: 1,
  ...over,
});

/** A random map: any story may depend on stories created before it (so the graph is a DAG). */
const maps = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        deps: fc.subarray(Array.from({ length: i }, (_, j) => j + 1)),
        sequence: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
        status: fc.constantFrom(...STATUSES),
        cancelled: fc.integer({ min: 0, max: 4 }).map((x) => x === 0),
      }),
    ),
  ),
);

/** True when the graph has a cycle, by peeling stories with no dependencies left. */
const hasCycle = (edges: Map<string, string[]>): boolean => {
  const left = new Map([...edges].map(([k, v]) => [k, new Set(v)]));
  for (let peeled = true; peeled;) {
    peeled = false;
    for (const [k, deps] of left)
      if ([...deps].every((d) => !left.has(d))) {
        left.delete(k);
        peeled = true;
      }
  }
  return left.size > 0;
};

describe('build order (property)', () => {
  it('never places a story before one it depends on, and places every sequenced or finished story', () =>
    fc.assert(
      fc.property(maps, (spec) => {
        const rows = spec.map((s, i) =>
          row(i + 1, {
            depends_on: s.deps.map((d) => `s${d}`),
            build_sequence: s.sequence,
            status: s.status,
            cancelled_at: s.cancelled ? '2026-01-01T00:00:00Z' : null,
          }),
        );
        const { order, unsequenced } = buildOrder([...rows].reverse());
        const at = new Map(order.map((o, i) => [o.id, i]));
        for (const [i, o] of order.entries())
          for (const dep of o.depends_on)
            if (at.has(dep)) assert.ok(at.get(dep)! < i, `${o.key} before ${dep}`);
        const live = rows.filter((r) => r.cancelled_at === null);
        assert.equal(order.length + unsequenced.length, live.length);
        for (const r of live)
          assert.equal(
            at.has(r.id),
            r.build_sequence !== null || r.status === 'done' || r.status === 'approved',
          );
      }),
      { numRuns: 300 },
    ));

  it('update_stories refuses exactly the dependency sets that make a cycle', () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(fc.subarray(Array.from({ length: n }, (_, j) => j + 1)), {
              minLength: n,
              maxLength: n,
            }),
          ),
        ),
        ([n, deps]) => {
          const ids = Array.from({ length: n }, (_, i) => `s${i + 1}`);
          const rows = ids.map((id, i) => ({
            story_id: id,
            changes: {},
            dependencies: deps[i]!.map((d) => `s${d}`).filter((d) => d !== id),
          }));
          const edges = new Map(rows.map((r) => [r.story_id, r.dependencies]));
          const stories = ids.map((id, i) => storyOf([storyCreated(id, i + 1)]));
          let refused: unknown;
          try {
            decideUpdateStories({ rows, caller: editor }, mapOf(baseMap(n)), stories);
          } catch (error) {
            refused = error;
          }
          assert.equal(refused !== undefined, hasCycle(edges));
          if (refused)
            assert.ok(isDomainError(refused) && refused.message.includes('Dependency cycle'));
        },
      ),
      { numRuns: 300 },
    ));
});
