/**
 * A fold that keeps persisted snapshots: its name (`<context>.<aggregate>`), the version of its
 * evolve (bumped whenever evolve or the state's shape changes: a snapshot of another version is
 * ignored and the stream folded again), and the fold itself. The store finds a declaration by
 * the identity of the evolve function a load passes, as the fold cache does (fold-cache.ts), so
 * every load of a declared fold, through the command handler or not, reads and writes snapshots.
 */
export type SnapshotSpec = { name: string; version: number };

export type SnapshotDeclaration<S = unknown, E = never> = SnapshotSpec & {
  evolve: (state: S, event: E) => S;
  initialState: () => S;
};

type AnyEvolve = (state: never, event: never) => unknown;

const byEvolve = new WeakMap<AnyEvolve, SnapshotDeclaration>();
const byName = new Map<string, SnapshotDeclaration>();

const NAME = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/** Declares a fold's snapshots; once per name (a second fold under one name is a bug). */
export const declareSnapshot = <S, E>(declaration: SnapshotDeclaration<S, E>): void => {
  const { name, version } = declaration;
  if (!NAME.test(name)) throw new TypeError(`snapshot name ${name} is not <context>.<aggregate>`);
  if (!Number.isInteger(version) || version < 1)
    throw new TypeError(`snapshot ${name}: version must be a positive integer`);
  const known = byName.get(name);
  if (known && known.evolve !== declaration.evolve)
    throw new TypeError(`snapshot ${name} declared for two folds`);
  byName.set(name, declaration as unknown as SnapshotDeclaration);
  byEvolve.set(declaration.evolve as AnyEvolve, declaration as unknown as SnapshotDeclaration);
};

export const snapshotSpecOf = (evolve: AnyEvolve): SnapshotSpec | undefined => byEvolve.get(evolve);

/** Every declared fold (what the snapshot property test covers). */
export const declaredSnapshots = (): readonly SnapshotDeclaration[] => [...byName.values()];
