/**
 * A persistent map: `with` returns a new version in O(1) and every older version stays valid,
 * read as a ReadonlyMap. One native Map is shared by all the versions of a lineage; the version
 * that owns it is the root, and every other version is a change away from a newer or older one
 * (Baker's rerooting, as in persistent arrays): reading an old version moves the root to it,
 * undoing the changes between. A fold hands the newest version on, so it is nearly always the
 * one read; an older one costs the changes since it. Iteration is the native map's insertion
 * order, except that an older version read after a later deletion was undone lists that key
 * last (nothing in the map's decisions depends on the order of its maps).
 *
 * The kernel of every context's aggregate state that grows by id (claims, leases, links).
 * Why it exists: the story map stream's evolve copied a whole Map per story indexed, so folding a map of n
 * stories cost O(n²) — 87% of seeding 10,000 stories (bench/storymap-research.ts).
 */
type Node<K, V> =
  | { kind: 'root'; map: Map<K, V> }
  | { kind: 'diff'; key: K; had: boolean; value: V | undefined; next: PersistentMap<K, V> };

export class PersistentMap<K, V> implements ReadonlyMap<K, V> {
  #node: Node<K, V>;

  private constructor(node: Node<K, V>) {
    this.#node = node;
  }

  static empty<K, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>({ kind: 'root', map: new Map() });
  }

  /** A new lineage holding `entries` (a snapshot read back): one version, no history. */
  static of<K, V>(entries: Iterable<readonly [K, V]>): PersistentMap<K, V> {
    return new PersistentMap<K, V>({ kind: 'root', map: new Map(entries) });
  }

  /** The native map, with this version made the root. */
  #map(): Map<K, V> {
    return this.#node.kind === 'root' ? this.#node.map : PersistentMap.#reroot(this);
  }

  static #reroot<K, V>(target: PersistentMap<K, V>): Map<K, V> {
    // the path to the root, then back: each step swaps which side of a change holds the map
    const path: PersistentMap<K, V>[] = [];
    let at = target;
    while (at.#node.kind === 'diff') {
      path.push(at);
      at = at.#node.next;
    }
    const map = (at.#node as { map: Map<K, V> }).map;
    for (let i = path.length - 1; i >= 0; i--) {
      const version = path[i]!;
      const change = version.#node as Extract<Node<K, V>, { kind: 'diff' }>;
      const newer = change.next;
      newer.#node = {
        kind: 'diff',
        key: change.key,
        had: map.has(change.key),
        value: map.get(change.key),
        next: version,
      };
      if (change.had) map.set(change.key, change.value as V);
      else map.delete(change.key);
      version.#node = { kind: 'root', map };
    }
    return map;
  }

  /** A new version with `key` set to `value`, or deleted for undefined. */
  with(key: K, value: V | undefined): PersistentMap<K, V> {
    const map = this.#map();
    const next = new PersistentMap<K, V>({ kind: 'root', map });
    this.#node = { kind: 'diff', key, had: map.has(key), value: map.get(key), next };
    if (value === undefined) map.delete(key);
    else map.set(key, value);
    return next;
  }

  get size(): number {
    return this.#map().size;
  }
  get(key: K): V | undefined {
    return this.#map().get(key);
  }
  has(key: K): boolean {
    return this.#map().has(key);
  }
  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, self?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(self, v, k, this);
  }
  // Iterators read a snapshot: reading another version meanwhile moves the shared map.
  entries(): MapIterator<[K, V]> {
    return [...this.#map().entries()][Symbol.iterator]();
  }
  keys(): MapIterator<K> {
    return [...this.#map().keys()][Symbol.iterator]();
  }
  values(): MapIterator<V> {
    return [...this.#map().values()][Symbol.iterator]();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
