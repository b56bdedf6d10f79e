import { NEVER } from '../events/rx.js';
import type { EventLog, ModelStore } from '../events/index.js';
import { startProjections, type Projector } from '../projections/index.js';
import { valueModels, type KeptValues } from './value-models.js';

/** Rebuilt stores kept per set of read models (the newest requests'), and checkpoints. */
const KEPT = 6;
/** Folding forward past a multiple of this keeps a copy there: a later request starts near. */
export const CHECKPOINT_EVERY = 4000;

/** Read models that only move forward: each past state is a frozen copy of them. */
type Spine = { models: ReturnType<typeof valueModels>; at: number };
/** The read models as of `at`: a frozen copy of a spine, read-only. */
type Kept = KeptValues & { at: number };

const newSpine = (): Spine => ({ models: valueModels(), at: 0 });

/** A new spine with the values of a kept state (its read models and their checkpoints). */
const spineFrom = (kept: Kept): Spine => ({ models: valueModels(kept.values), at: kept.at });

const keepOf = (spine: Spine): Kept => ({ ...spine.models.keep(), at: spine.at });

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
    models: spine.models.store,
    // the log cut at `head`: no read past it (the engine reads a page ahead while it folds)
    readAll: async ({ after, limit }) =>
      after >= head
        ? []
        : (await log.readAll({ after, limit: Math.min(limit, head - after) })).filter(
            (e) => e.global_position <= head,
          ),
    head: async () => head,
    live: () => NEVER,
  };
  const engine = await startProjections(bounded, projectors);
  await engine.stop();
  spine.at = head;
};

/**
 * Read models as of past positions, rebuilt from the log into memory. Per set of read models
 * one store of values moves forward only (the spine) and each position asked for is kept as a
 * frozen copy of it (a copy of its map of keys, the values are shared), as is every multiple of
 * `CHECKPOINT_EVERY` it folds past: a slider moving forward folds only the events between two
 * positions; one moving back starts a new spine from the nearest earlier kept state and folds on
 * from there, never from position 0 when a kept state is earlier. The result is the same as a
 * rebuild from 0 (the engine's checkpoint-and-continue is how the live read models are made too).
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
    // the oldest kept first out (a page still drawing from it keeps it alive until it is done)
    while (models.kept.length > most) models.kept.shift();
  };

  const rebuild = async (models: Models, projectors: readonly Projector[], at: number) => {
    const found = models.kept.find((k) => k.at === at);
    if (found) return found.store;
    if (!models.spine || models.spine.at > at) {
      const base = models.kept
        .filter((k) => k.at <= at)
        .reduce<Kept | undefined>((best, k) => (!best || k.at > best.at ? k : best), undefined);
      models.spine = base ? spineFrom(base) : newSpine();
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
      // one rebuild at a time per set: the spine is one store moving forward
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
