import { randomBytes } from 'node:crypto';
import { NEVER } from '../events/rx.js';
import {
  decode,
  encode,
  openMemoryLevel,
  type EventLog,
  type ModelStore,
} from '../events/index.js';
import { levelModelStore, type ModelKeys } from '../events/level/level-model-store.js';
import {
  checkpointKey,
  startProjections,
  type Checkpoint,
  type Projector,
} from '../projections/index.js';
import type { AuditFinding } from './audit-records.js';
import { SINK_PREFIX } from './sinks.js';

type Dump = Map<string, Buffer>;

/** Every read-model key with its value's bytes (values re-encoded: msgpack is deterministic). */
const dump = async (models: ModelStore): Promise<Dump> =>
  new Map((await models.range({ prefix: '' })).map(([k, v]) => [k, encode(v)]));

/**
 * A position the stored read models can be compared at, with the log: the highest stored
 * checkpoint, if no read model has an event it handles between its own checkpoint and it (a
 * model idle on the last pages writes its checkpoint only now and then, so the checkpoints
 * differ; its data is the fold up to any position it has nothing to fold before). Undefined
 * while one has such an event: a live writer moved the models on while we looked.
 */
const comparablePosition = async (
  log: EventLog,
  stored: Dump,
  projectors: readonly Projector[],
): Promise<number | undefined> => {
  const at = projectors.map((p) => {
    const bytes = stored.get(checkpointKey(p.name));
    return bytes ? decode<Checkpoint>(bytes).position : 0;
  });
  const position = Math.max(0, ...at);
  const handles = projectors.map((p) => new Set(p.handles));
  for (let after = Math.min(position, ...at); after < position;) {
    const page = await log.readAll({ after, limit: 1000 });
    if (page.length === 0) break;
    for (const e of page) {
      if (e.global_position > position) return position;
      if (handles.some((h, i) => e.global_position > at[i]! && h.has(e.type))) return undefined;
    }
    after = page.at(-1)!.global_position;
  }
  return position;
};

/**
 * The replay lives in memory and ends with the audit, so a sealed model value is kept under a
 * throwaway key: what is compared is the opened value, as the stored models read it. Content
 * shredded since reads as shredded in the replayed events too, so no projector puts it back.
 */
const THROWAWAY_KEY = randomBytes(32);
const inMemoryKeys: ModelKeys = async () => () => THROWAWAY_KEY;

/**
 * Folds the log up to `head` through every projector into a fresh in-memory model store: what
 * the read models must be if they are a pure function of the log.
 */
export const replayModels = async (
  log: EventLog,
  projectors: readonly Projector[],
  head: number,
): Promise<ModelStore> => {
  const models = levelModelStore(await openMemoryLevel(), inMemoryKeys);
  const bounded: EventLog = {
    ...log,
    models,
    readAll: async (page) => (await log.readAll(page)).filter((e) => e.global_position <= head),
    head: async () => head,
    live: () => NEVER,
  };
  const engine = await startProjections(bounded, projectors);
  await engine.stop();
  return models;
};

const firstDifference = (stored: Dump, replayed: Dump): AuditFinding | undefined => {
  const keys = [...new Set([...stored.keys(), ...replayed.keys()])].sort();
  // the checkpoints are where each model stands, not what it holds: comparablePosition read them;
  // a file sink's place and marks are no read model (its files have an audit of their own)
  const compared = keys.filter(
    (k) => !k.startsWith(checkpointKey('')) && !k.startsWith(SINK_PREFIX),
  );
  for (const key of compared) {
    const a = stored.get(key);
    const b = replayed.get(key);
    if (a && b && a.equals(b)) continue;
    const reason = !a
      ? 'missing from the stored read models'
      : !b
        ? 'in the stored read models but not produced by replay'
        : 'stored value differs from the replayed one';
    return { check: 'read-model', key, reason };
  }
  return undefined;
};

export type ModelCheck = { keys: number; position: number; finding?: AuditFinding };

/**
 * Compares the stored read models with a replay of the log. A live writer may move the models
 * on while we look, so the comparison is made at a position every stored model stands at.
 */
export const auditModels = async (
  log: EventLog,
  projectors: readonly Projector[],
  waitFor: (position: number) => Promise<void>,
): Promise<ModelCheck> => {
  for (let attempt = 0; attempt < 5; attempt++) {
    await waitFor(await log.head());
    const stored = await dump(log.models);
    const position = await comparablePosition(log, stored, projectors);
    if (position === undefined) continue;
    const replayed = await dump(await replayModels(log, projectors, position));
    return { keys: stored.size, position, finding: firstDifference(stored, replayed) };
  }
  const reason = 'read-model checkpoints never agreed on one position';
  return { keys: 0, position: 0, finding: { check: 'read-model', reason } };
};
