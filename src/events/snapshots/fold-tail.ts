import type { FoldEntry } from '../fold-cache.js';

type Folded = { metadata: { seal?: string } };

/**
 * `from` with the stream's tail folded in: the entry a load keeps, at `version`, remembering
 * whether the fold ever saw sealed content (then its snapshots are encrypted) and when its last
 * snapshot was made. Timed, for the snapshot policy's "slow fold".
 */
export const foldTail = <S>(
  from: FoldEntry,
  tail: readonly unknown[],
  evolve: (state: S, event: unknown) => S,
  version: number,
  tag?: string,
): { entry: FoldEntry; ms: number } => {
  if (tail.length === 0 && from.version === version && from.tag === tag)
    return { entry: from, ms: 0 };
  const started = performance.now();
  const state = tail.reduce<S>(evolve, from.state as S);
  const ms = performance.now() - started;
  const sealed =
    from.sealed === true || (tail as Folded[]).some((e) => e.metadata.seal !== undefined);
  const entry: FoldEntry = { state, version, tag, sealed, snapshotAt: from.snapshotAt ?? 0 };
  return { entry, ms };
};
