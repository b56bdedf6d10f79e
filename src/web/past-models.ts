import { randomBytes } from 'node:crypto';
import { NEVER } from '../events/rx.js';
import type { AbstractSnapshot } from 'abstract-level';
import { openMemoryLevel, type EventLog, type LevelDb, type ModelStore } from '../events/index.js';
import { levelModelStore, type ModelKeys } from '../events/level/level-model-store.js';
import { startProjections, type Projector } from '../projections/index.js';

/** Rebuilt stores kept per set of read models (the newest requests'), and checkpoints. */
const KEPT = 6;
/** Folding forward past a multiple of this keeps a copy there: a later request starts near. */
export const CHECKPOINT_EVERY = 4000;

/** How long an evicted state stays readable for a page still drawing from it. */
const RELEASE_AFTER_MS = 60_000;

/**
 * A rebuilt store lives in memory and dies with the process, so a sealed value is kept under a
 * throwaway key (as the audit's replay does); one key for every store, so a copy of a store's
 * bytes reads like the store itself.
 */
const THROWAWAY_KEY = randomBytes(32);
const inMemoryKeys: ModelKeys = async () => () => THROWAWAY_KEY;

/** A store whose database only moves forward: each past state is a snapshot of it. */
type Spine = { db: LevelDb; store: ModelStore; at: number };
/** The read models as of `at`: a snapshot of a spine, read-only. */
type Kept = { at: number; db: LevelDb; snapshot: AbstractSnapshot; store: ModelStore };

const newSpine = async (): Promise<Spine> => {
  const db = await openMemoryLevel();
  return { db, store: levelModelStore(db, inMemoryKeys), at: 0 };
};

/** A new spine with the bytes of a kept state (its read models and their checkpoints). */
const spineFrom = async (kept: Kept): Promise<Spine> => {
  const entries = await kept.db.iterator({ snapshot: kept.snapshot }).all();
  const spine = await newSpine();
  const batch = spine.db.batch();
  for (const [key, value] of entries) batch.put(key, value);
  await batch.write();
  return { ...spine, at: kept.at };
};

const keepOf = (spine: Spine): Kept => {
  const snapshot = spine.db.snapshot();
  return {
    at: spine.at,
    db: spine.db,
    snapshot,
    store: levelModelStore(spine.db, inMemoryKeys, snapshot),
  };
};

/**
 * Folds the spine forward to `head`: the projection engine continues from the checkpoints the
 * store holds (nothing, for a fresh one) over the log cut at `head`, as the audit's replay does.
 */
const foldTo = async (
  log: EventLog,
  projectors: readonly Projector[],
  spine: Spine,
  head: number,
): Promise<void> => {
  const bounded: EventLog = {
    ...log,
    models: spine.store,
    readAll: async (page) => (await log.readAll(page)).filter((e) => e.global_position <= head),
    head: async () => head,
    live: () => NEVER,
  };
  const engine = await startProjections(bounded, projectors);
  await engine.stop();
  spine.at = head;
};

/**
 * Read models as of past positions, rebuilt from the log into memory. Per set of read models
 * one store moves forward only (the spine) and each position asked for is kept as a snapshot of
 * it, as is every multiple of `CHECKPOINT_EVERY` it folds past: a slider moving forward folds
 * only the events between two positions and copies nothing; one moving back copies the nearest
 * earlier kept state into a new spine and folds on from there, never from position 0 when a
 * kept state is earlier. The result is the same as a rebuild from 0 (the engine's
 * checkpoint-and-continue is how the live read models are made too).
 */
export const pastModels = (
  log: EventLog,
  { every = CHECKPOINT_EVERY, most = KEPT }: { every?: number; most?: number } = {},
) => {
  type Models = { spine?: Spine; kept: Kept[]; turn: Promise<unknown> };
  const sets = new Map<string, Models>();

  const keep = (models: Models, spine: Spine) => {
    if (models.kept.some((k) => k.at === spine.at)) return;
    models.kept.push(keepOf(spine));
    // the oldest kept first out; its snapshot lets go of the tree it held once no page that
    // was handed its store can still be reading it
    while (models.kept.length > most) {
      const { snapshot } = models.kept.shift()!;
      setTimeout(() => void snapshot.close(), RELEASE_AFTER_MS).unref();
    }
  };

  const rebuild = async (models: Models, projectors: readonly Projector[], at: number) => {
    const found = models.kept.find((k) => k.at === at);
    if (found) return found.store;
    if (!models.spine || models.spine.at > at) {
      const base = models.kept
        .filter((k) => k.at <= at)
        .reduce<Kept | undefined>((best, k) => (!best || k.at > best.at ? k : best), undefined);
      models.spine = base ? await spineFrom(base) : await newSpine();
    }
    const spine = models.spine;
    for (let stop = (Math.floor(spine.at / every) + 1) * every; stop < at; stop += every) {
      await foldTo(log, projectors, spine, stop);
      keep(models, spine);
    }
    await foldTo(log, projectors, spine, at);
    keep(models, spine);
    return models.kept.find((k) => k.at === at)!.store;
  };

  return {
    /** the read models of `projectors` as of global position `at` */
    at(at: number, projectors: readonly Projector[]): Promise<ModelStore> {
      const set = projectors.map((p) => `${p.name}@${p.version}`).join(',');
      let models = sets.get(set);
      if (!models) sets.set(set, (models = { kept: [], turn: Promise.resolve() }));
      // one rebuild at a time per set: the spine is one database moving forward
      const mine = models;
      const turn = mine.turn.then(() => rebuild(mine, projectors, at));
      mine.turn = turn.catch(() => {
        // a failed fold leaves the spine half-way: the next request starts from a kept state
        delete mine.spine;
      });
      return turn;
    },
    /** positions kept for a set of read models (for tests) */
    keptPositions: (projectors: readonly Projector[]) =>
      (sets.get(projectors.map((p) => `${p.name}@${p.version}`).join(','))?.kept ?? []).map(
        (k) => k.at,
      ),
  };
};
