import { randomBytes } from 'node:crypto';
import { NEVER } from 'rxjs';
import { openMemoryLevel, type EventLog, type LevelDb, type ModelStore } from '../events/index.js';
import { levelModelStore, type ModelKeys } from '../events/level/level-model-store.js';
import { startProjections, type Projector } from '../projections/index.js';

/** Rebuilt stores kept per set of read models (the newest requests'), and checkpoints. */
const KEPT = 6;
/** Folding forward past a multiple of this keeps a copy there: a later request starts near. */
export const CHECKPOINT_EVERY = 4000;

/**
 * A rebuilt store lives in memory and dies with the process, so a sealed value is kept under a
 * throwaway key (as the audit's replay does); one key for every store, so a copy of a store's
 * bytes reads like the store itself.
 */
const THROWAWAY_KEY = randomBytes(32);
const inMemoryKeys: ModelKeys = async () => () => THROWAWAY_KEY;

type Rebuilt = { at: number; db: LevelDb; store: ModelStore };

const emptyStore = async (): Promise<Rebuilt> => {
  const db = await openMemoryLevel();
  return { at: 0, db, store: levelModelStore(db, inMemoryKeys) };
};

/** A copy of a rebuilt store's bytes (its read models and their checkpoints), at its position. */
const copyOf = async (from: Rebuilt): Promise<Rebuilt> => {
  const entries = await from.db.iterator().all();
  const to = await emptyStore();
  const batch = to.db.batch();
  for (const [key, value] of entries) batch.put(key, value);
  await batch.write();
  return { ...to, at: from.at };
};

/**
 * Folds `rebuilt` forward to `head`: the projection engine continues from the checkpoints the
 * store holds (nothing, for a fresh one) over the log cut at `head`, as the audit's replay does.
 */
const foldTo = async (
  log: EventLog,
  projectors: readonly Projector[],
  rebuilt: Rebuilt,
  head: number,
): Promise<void> => {
  const bounded: EventLog = {
    ...log,
    models: rebuilt.store,
    readAll: async (page) => (await log.readAll(page)).filter((e) => e.global_position <= head),
    head: async () => head,
    live: () => NEVER,
  };
  const engine = await startProjections(bounded, projectors);
  await engine.stop();
  rebuilt.at = head;
};

/**
 * Read models as of past positions, rebuilt from the log into memory. A request starts from the
 * nearest earlier store it kept for the same read models (a copy of it: a kept store never
 * changes), not from position 0, and keeps a copy at every multiple of `CHECKPOINT_EVERY` it
 * folds past: a slider moving forward folds only the events between two positions, and one
 * moving back starts from a checkpoint. The result is the same as a rebuild from 0 (the
 * engine's checkpoint-and-continue is how the live read models are made too).
 */
export const pastModels = (
  log: EventLog,
  { every = CHECKPOINT_EVERY, most = KEPT }: { every?: number; most?: number } = {},
) => {
  /** by read-model set: kept stores, settled, by position */
  const kept = new Map<string, Rebuilt[]>();
  const pending = new Map<string, Promise<ModelStore>>();

  const keep = (set: string, rebuilt: Rebuilt) => {
    const list = (kept.get(set) ?? []).filter((r) => r.at !== rebuilt.at);
    list.push(rebuilt);
    // the oldest kept first out; the store at position 0 costs nothing to make again
    while (list.length > most) list.shift();
    kept.set(set, list);
  };

  const rebuild = async (set: string, projectors: readonly Projector[], at: number) => {
    const base = (kept.get(set) ?? [])
      .filter((r) => r.at <= at)
      .reduce<Rebuilt | undefined>((best, r) => (!best || r.at > best.at ? r : best), undefined);
    if (base?.at === at) return base.store;
    const work = base ? await copyOf(base) : await emptyStore();
    for (let stop = (Math.floor(work.at / every) + 1) * every; stop < at; stop += every) {
      await foldTo(log, projectors, work, stop);
      keep(set, await copyOf(work));
    }
    await foldTo(log, projectors, work, at);
    keep(set, work);
    return work.store;
  };

  return {
    /** the read models of `projectors` as of global position `at` */
    at(at: number, projectors: readonly Projector[]): Promise<ModelStore> {
      const set = projectors.map((p) => `${p.name}@${p.version}`).join(',');
      const key = `${at}|${set}`;
      let store = pending.get(key);
      if (!store) {
        store = rebuild(set, projectors, at).finally(() => pending.delete(key));
        pending.set(key, store);
      }
      return store;
    },
    /** positions kept for a set of read models (for tests) */
    keptPositions: (projectors: readonly Projector[]) =>
      (kept.get(projectors.map((p) => `${p.name}@${p.version}`).join(',')) ?? []).map((r) => r.at),
  };
};
