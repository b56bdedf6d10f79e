import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dependencyOrder, isFinished } from '../../src/commands/storymap/build-order.js';
import { runOrder, type StoryFact } from '../../src/commands/storymap/run-next.js';
import type { RunState } from '../../src/commands/storymap/run-state.js';
import { emptyRow } from '../../src/projections/storymap/build-order.js';
import { buildOrder } from '../../src/projections/storymap/order.js';

type Node = { id: string; deps: string[]; weight: number };
const rule = {
  id: (n: Node) => n.id,
  dependsOn: (n: Node) => n.deps,
  before: (a: Node, b: Node) => a.weight < b.weight || (a.weight === b.weight && a.id < b.id),
};

/** The rule read plainly: of the stories whose dependencies in the set are placed, the first. */
const reference = (nodes: readonly Node[], force: boolean): Node[] => {
  const ids = new Set(nodes.map((n) => n.id));
  const placed = new Set<string>();
  const out: Node[] = [];
  const first = (list: Node[]) => list.reduce((a, b) => (rule.before(b, a) ? b : a));
  while (out.length < nodes.length) {
    const left = nodes.filter((n) => !placed.has(n.id));
    const ready = left.filter((n) => n.deps.every((d) => !ids.has(d) || placed.has(d)));
    if (ready.length === 0 && !force) break;
    const next = first(ready.length > 0 ? ready : left);
    placed.add(next.id);
    out.push(next);
  }
  return out;
};

/** Any graph, cycles included: a story may depend on any other, or on one outside the set. */
const graphs = fc.integer({ min: 1, max: 25 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        id: fc.constant(`s${i}`),
        deps: fc.subarray([...Array.from({ length: n }, (_, j) => `s${j}`), 'outside']),
        weight: fc.integer({ min: 0, max: 5 }),
      }),
    ),
  ),
);

describe('the story map build-order rule (commands/storymap/build-order.ts)', () => {
  it('places the first ready story each time; leaves a cycle out, or breaks it when asked', () =>
    fc.assert(
      fc.property(graphs, (nodes) => {
        const left = dependencyOrder(nodes, rule);
        assert.deepEqual(left.ordered, reference(nodes, false));
        assert.deepEqual(
          new Set(left.cyclic.map((n) => n.id)),
          new Set(nodes.filter((n) => !left.ordered.includes(n)).map((n) => n.id)),
        );
        const forced = dependencyOrder(nodes, { ...rule, onCycle: 'force' });
        assert.deepEqual(forced.ordered, reference(nodes, true));
        assert.deepEqual(forced.cyclic, []);
      }),
    ));

  it('finished means done or approved, for the map and for a run alike', () => {
    const statuses = ['todo', 'ready_for_dev', 'in_progress', 'needs_rework', 'done', 'approved'];
    assert.deepEqual(
      statuses.filter((status) => isFinished({ status: status as StoryFact['status'] })),
      ['done', 'approved'],
    );
  });

  it('the map and a run order the same stories by the same rule', () => {
    // B depends on A, C on B; the founder lists them C, B, A: both put A, B, C
    const facts = new Map<string, StoryFact>(
      [
        ['a', []],
        ['b', ['a']],
        ['c', ['b']],
      ].map(([id, deps]) => [
        id as string,
        {
          id: id as string,
          key: `K-${id}`,
          title: `${id}`,
          status: 'todo',
          cancelled: false,
          depends_on: deps as string[],
        },
      ]),
    );
    const run = { story_ids: ['c', 'b', 'a'] } as unknown as RunState;
    assert.deepEqual(
      runOrder(run, facts).map((s) => s.id),
      ['a', 'b', 'c'],
    );
    const rows = [...facts.values()].map((f, i) => ({
      ...emptyRow(f.id),
      key: f.key,
      number: i + 1,
      build_sequence: 3 - i,
      depends_on: [...f.depends_on],
    }));
    assert.deepEqual(
      buildOrder(rows).order.map((s) => s.id),
      ['a', 'b', 'c'],
    );
  });
});
