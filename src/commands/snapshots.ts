import type { Command, Decider, Event } from '@event-driven-io/emmett';
import {
  declareSnapshot,
  declaredSnapshots,
  registerStateClass,
  type SnapshotSpec,
} from '../events/index.js';
import { PersistentMap } from './persistent-map.js';

// A persistent map stores as its entries and reads back as a new lineage of one version.
registerStateClass<PersistentMap<unknown, unknown>>({
  tag: 'persistent-map',
  is: (value): value is PersistentMap<unknown, unknown> => value instanceof PersistentMap,
  toData: (map) => [...map.entries()],
  fromData: (data) => PersistentMap.of(data as [unknown, unknown][]),
});

/**
 * Persisted, versioned aggregate snapshots, as a decider declares them (the store does the rest:
 * src/events/snapshots/). A context's state declares its snapshot next to its evolve:
 *
 *     export const taskDecider = Snapshots.of(decider, { name: 'intent.task', version: 1 });
 *
 * and bumps `version` whenever evolve or the state's shape changes (a snapshot of another
 * version is ignored and the stream folded from its first event). A state may hold plain data,
 * Map, Set, bigint, Uint8Array, Date, PersistentMap, and classes registered with `registerClass`.
 */
export const Snapshots = {
  /** Declares `decider`'s snapshots and hands it back. */
  of: <S, C extends Command, E extends Event>(
    decider: Decider<S, C, E>,
    spec: SnapshotSpec,
  ): Decider<S, C, E> => {
    declareSnapshot({ ...spec, evolve: decider.evolve, initialState: decider.initialState });
    return decider;
  },
  /** Declares the snapshots of a fold that is not a decider's (a stream folded by itself). */
  declare: declareSnapshot,
  declared: declaredSnapshots,
  registerClass: registerStateClass,
};
