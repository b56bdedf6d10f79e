import type { StoryStatus } from '../../events/storymap/index.js';

/**
 * The story map's build-order rule, once: what counts as finished, and the order stories are
 * built in — never a story before one of the same set it depends on. The map's build order
 * (src/projections/storymap/order.ts) and a run's (run-next.ts) differ only in which of the
 * stories ready to go comes first.
 */
export const FINISHED: ReadonlySet<StoryStatus> = new Set(['done', 'approved']);

export const isFinished = (story: { readonly status: StoryStatus }): boolean =>
  FINISHED.has(story.status);

export type DependencyOrder<T> = {
  /** every story of the set whose dependencies inside it could be placed, in order */
  ordered: T[];
  /** the rest, in a dependency cycle (the map refuses those; a read must not hang on one) */
  cyclic: T[];
};

/**
 * Kahn's algorithm: a story is ready once every dependency of it inside the set is placed; of
 * the ready ones, the first by `before` goes next. A dependency outside the set holds nothing
 * back. `onCycle: 'force'` places the first story left (by `before`) when none is ready, so a
 * cycle ends the order instead of being left out.
 */
export const dependencyOrder = <T>(
  stories: readonly T[],
  rule: {
    id: (story: T) => string;
    dependsOn: (story: T) => readonly string[];
    before: (a: T, b: T) => boolean;
    onCycle?: 'leave' | 'force';
  },
): DependencyOrder<T> => {
  const byId = new Map(stories.map((s) => [rule.id(s), s]));
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const story of stories) {
    const deps = rule.dependsOn(story).filter((d) => byId.has(d));
    waiting.set(rule.id(story), deps.length);
    for (const d of deps) dependents.set(d, [...(dependents.get(d) ?? []), rule.id(story)]);
  }
  const ready = heap(rule.before);
  for (const story of stories) if (waiting.get(rule.id(story)) === 0) ready.push(story);
  const ordered: T[] = [];
  const placed = new Set<string>();
  const place = (story: T) => {
    ordered.push(story);
    placed.add(rule.id(story));
    for (const next of dependents.get(rule.id(story)) ?? []) {
      const left = waiting.get(next)! - 1;
      waiting.set(next, left);
      if (left === 0 && !placed.has(next)) ready.push(byId.get(next)!);
    }
  };
  while (ordered.length < stories.length) {
    if (ready.size() > 0) {
      const story = ready.pop();
      if (!placed.has(rule.id(story))) place(story);
      continue;
    }
    const left = stories.filter((s) => !placed.has(rule.id(s)));
    if (rule.onCycle !== 'force' || left.length === 0) break;
    place(left.reduce((a, b) => (rule.before(b, a) ? b : a)));
  }
  return { ordered, cyclic: stories.filter((s) => !placed.has(rule.id(s))) };
};

/** A binary heap by `before`: 2,000 stories must not cost a sort per placed story. */
const heap = <T>(before: (a: T, b: T) => boolean) => {
  const items: T[] = [];
  const swap = (i: number, j: number) => ([items[i], items[j]] = [items[j]!, items[i]!]);
  return {
    size: () => items.length,
    push(item: T) {
      items.push(item);
      for (let i = items.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!before(items[i]!, items[parent]!)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop(): T {
      const top = items[0]!;
      const last = items.pop()!;
      if (items.length === 0) return top;
      items[0] = last;
      for (let i = 0; ;) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let best = i;
        if (l < items.length && before(items[l]!, items[best]!)) best = l;
        if (r < items.length && before(items[r]!, items[best]!)) best = r;
        if (best === i) break;
        swap(i, best);
        i = best;
      }
      return top;
    },
  };
};
