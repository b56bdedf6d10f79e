/**
 * The last folded state of a stream, per fold (keyed by the identity of its evolve function), at
 * the version it was folded to. A command on a long stream then folds only the events appended
 * since its last load: a decision on a stream of 20,000 events costs what its new events cost.
 * Safe because a decider's evolve is pure (it returns new states and never changes the one it
 * is given), so a state folded once can be handed to every later load of the same fold. A
 * fold's entries are bounded; the store drops them all when content may have changed under
 * them (a shred, an import), as it drops its stream cache.
 */
export type FoldEntry = {
  state: unknown;
  version: number;
  /** what else the store checks before reuse (PostgreSQL: the log's shred count) */
  tag?: string;
};

type Evolve = (state: never, event: never) => unknown;

export const foldCache = (limit = 10_000) => {
  let folds = new WeakMap<Evolve, Map<string, FoldEntry>>();
  let size = 0;
  return {
    get: (evolve: Evolve, stream: string): FoldEntry | undefined => folds.get(evolve)?.get(stream),
    set(evolve: Evolve, stream: string, entry: FoldEntry): void {
      let streams = folds.get(evolve);
      if (!streams) folds.set(evolve, (streams = new Map()));
      if (!streams.has(stream) && ++size > limit) {
        folds = new WeakMap();
        size = 1;
        folds.set(evolve, (streams = new Map()));
      }
      streams.set(stream, entry);
    },
    clear(): void {
      folds = new WeakMap();
      size = 0;
    },
  };
};
