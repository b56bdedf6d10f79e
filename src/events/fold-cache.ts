/**
 * The last folded state of a stream, per fold (keyed by the identity of its evolve function), at
 * the version it was folded to. A command on a long stream then folds only the events appended
 * since its last load: a decision on a stream of 20,000 events costs what its new events cost.
 * Safe because a decider's evolve is pure (it returns new states and never changes the one it
 * is given), so a state folded once can be handed to every later load of the same fold. The
 * store drops every entry when content may have changed under them (a shred, an import), as it
 * drops its stream cache.
 *
 * Bounded by weight, least recently used first: a state's weight is estimated by the events
 * folded into it (a state grows with its stream; measuring its bytes would cost a walk of it per
 * load). One entry heavier than the whole budget is still kept while it is the newest: the
 * aggregate in use is never the one dropped. Evicting costs a later load its snapshot (or a fold).
 */
export type FoldEntry = {
  state: unknown;
  version: number;
  /** what else the store checks before reuse (PostgreSQL: the log's shred count) */
  tag?: string;
  /** the fold saw sealed content: its snapshots are encrypted (snapshots/snapshot-keeper.ts) */
  sealed?: boolean;
  /** the version of the last snapshot written or read for this stream (0: none) */
  snapshotAt?: number;
};

type Evolve = (state: never, event: never) => unknown;

/** The default budget: events folded into the states kept, over every fold and stream. */
export const FOLD_CACHE_WEIGHT = 200_000;

const weightOf = (entry: FoldEntry): number => 1 + entry.version;

export const foldCache = (budget = FOLD_CACHE_WEIGHT) => {
  const ids = new WeakMap<Evolve, number>();
  let nextId = 0;
  // insertion order is recency: a read moves its entry to the end
  let entries = new Map<string, FoldEntry>();
  let weight = 0;

  const keyOf = (evolve: Evolve, stream: string): string => {
    let id = ids.get(evolve);
    if (id === undefined) ids.set(evolve, (id = nextId++));
    return `${id}\u0000${stream}`;
  };
  const evict = (): void => {
    for (const [key, entry] of entries) {
      if (weight <= budget || entries.size <= 1) break;
      entries.delete(key);
      weight -= weightOf(entry);
    }
  };

  return {
    get(evolve: Evolve, stream: string): FoldEntry | undefined {
      const key = keyOf(evolve, stream);
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(evolve: Evolve, stream: string, entry: FoldEntry): void {
      const key = keyOf(evolve, stream);
      const old = entries.get(key);
      if (old) {
        weight -= weightOf(old);
        entries.delete(key);
      }
      entries.set(key, entry);
      weight += weightOf(entry);
      evict();
    },
    clear(): void {
      entries = new Map();
      weight = 0;
    },
    /** entries kept and their weight (tests) */
    stats: () => ({ entries: entries.size, weight }),
  };
};
