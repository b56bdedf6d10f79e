// Staging for group commit (group-commit.ts): what a batch's appends need, read in one round
// trip, and each append checked, planned and put into the batch.
import type { Event } from '@event-driven-io/emmett';
import {
  appendResult,
  planAppend,
  type Plan,
  type PlanInput,
  type ProjectHead,
} from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { decode, encode } from '../codec.js';
import { GENESIS_HASH, type StoredRecord } from '../envelope.js';
import {
  idempotencyRecord,
  SYSTEM_META,
  type IdempotencyRecord,
  type LogAppendOptions,
  type LogAppendResult,
} from '../event-log.js';
import { newSubjectKey, sealSubjectOf } from '../sealing.js';
import { parseStreamName } from '../stream-name.js';
import { assertNoNul, be64, Keys, readBe64 } from './keys.js';
import type { LevelDb } from './level-db.js';

export type Pending = {
  streamName: string;
  events: Event[];
  options: LogAppendOptions<Event>;
  resolve: (result: LogAppendResult) => void;
  reject: (error: unknown) => void;
};

export type LevelBatch = ReturnType<LevelDb['batch']>;

/** The writer's durable heads, cached. */
export type DurableHeads = { streams: Map<string, number>; projects: Map<string, ProjectHead> };

/**
 * What one batch knows and has decided: heads, idempotency and append records, content keys.
 * What its appends need comes from the batch being written when it was opened (`base`, whose
 * decisions are not durable yet), else from the durable caches, else from one `getMany`.
 * Merged into the caches only once durable.
 */
export type Staged = {
  base: Staged | undefined;
  global: number;
  streams: Map<string, number>;
  projects: Map<string, ProjectHead>;
  idempotency: Map<string, IdempotencyRecord | undefined>;
  appends: Map<string, LogAppendResult | undefined>;
  keys: Map<string, Uint8Array | undefined>;
  /** subjects whose content key this batch creates */
  newKeys: Set<string>;
  /** streams and projects whose heads this batch moves: written once, when it is sealed */
  moved: { streams: Set<string>; projects: Set<string> };
};

/**
 * An append staged into a batch, answered once the batch is durable: with its result, or as a
 * replay of an idempotency record (which may have been staged by this batch or the one before
 * it, so is not known to be durable until then).
 */
export type Settled = {
  p: Pending;
  records: StoredRecord[];
  answer: { result: LogAppendResult } | { replays: IdempotencyRecord };
};

export const newStaged = (base: Staged | undefined, global: number): Staged => ({
  base,
  global: base?.global ?? global,
  streams: new Map(),
  projects: new Map(),
  idempotency: new Map(),
  appends: new Map(),
  keys: new Map(),
  newKeys: new Set(),
  moved: { streams: new Set(), projects: new Set() },
});

export const projectOf = (streamName: string): string =>
  parseStreamName(streamName)?.projectId ?? '';

/** Fills the batch's maps with everything a group needs: one round trip for what is not known. */
export const prefetch = async (
  db: LevelDb,
  heads: DurableHeads,
  group: Pending[],
  staged: Staged,
): Promise<void> => {
  const wanted: { key: Buffer; fill: (value: Buffer | undefined) => void }[] = [];
  const want = <V>(
    of: (s: Staged) => Map<string, V>,
    id: string,
    cache: Map<string, V> | undefined,
    key: () => Buffer,
    read: (b?: Buffer) => V,
  ) => {
    const own = of(staged);
    if (own.has(id)) return;
    // copied now: the caches may be trimmed while lookups are out
    const known = staged.base && of(staged.base).has(id) ? of(staged.base) : cache;
    if (known?.has(id)) return void own.set(id, known.get(id)!);
    own.set(id, undefined as V);
    wanted.push({ key: key(), fill: (b) => own.set(id, read(b)) });
  };
  for (const p of group) {
    const project = projectOf(p.streamName);
    want(
      (s) => s.streams,
      p.streamName,
      heads.streams,
      () => Keys.streamHead(p.streamName),
      (b) => (b ? readBe64(b) : 0),
    );
    want(
      (s) => s.projects,
      project,
      heads.projects,
      () => Keys.projectHead(project),
      (b) => (b ? decode<ProjectHead>(b) : { cursor: 0, hash: GENESIS_HASH }),
    );
    const { appendId, idempotency } = p.options;
    if (appendId)
      want(
        (s) => s.appends,
        appendId,
        undefined,
        () => Keys.append(appendId),
        (b) => (b ? decode(b) : undefined),
      );
    if (idempotency)
      want(
        (s) => s.idempotency,
        idempotency.scope,
        undefined,
        () => Keys.idempotency(idempotency.scope),
        (b) => (b ? decode(b) : undefined),
      );
    for (const e of p.events) {
      const subject = sealSubjectOf(e);
      if (subject)
        want(
          (s) => s.keys,
          subject,
          undefined,
          () => Keys.key(subject),
          (b) => b,
        );
    }
  }
  if (wanted.length > 0) {
    const values = await db.getMany(wanted.map((w) => w.key));
    wanted.forEach((w, i) => w.fill(values[i]));
  }
};

const keyFor = (staged: Staged, subject: string): Uint8Array => {
  let key = staged.keys.get(subject);
  if (!key) {
    key = newSubjectKey();
    staged.keys.set(subject, key);
    staged.newKeys.add(subject);
  }
  return key;
};

/**
 * Plans one append of the batch. When it fails, the content keys it created are forgotten: they
 * are not in the batch, and a later append of the batch would seal under a key never written.
 */
const planStaged = (staged: Staged, input: PlanInput): Plan => {
  try {
    return planAppend(input);
  } catch (error) {
    for (const subject of staged.newKeys) staged.keys.delete(subject);
    staged.newKeys.clear();
    throw error;
  }
};

/** The heads of the streams and projects the batch moved, once each: when it is sealed. */
export const putHeads = (staged: Staged, ops: LevelBatch): void => {
  for (const name of staged.moved.streams)
    ops.put(Keys.streamHead(name), be64(staged.streams.get(name)!));
  for (const id of staged.moved.projects)
    ops.put(Keys.projectHead(id), encode(staged.projects.get(id)));
};

export const stage = (
  catalog: Catalog,
  p: Pending,
  staged: Staged,
  ops: LevelBatch,
  now: Date,
): Omit<Settled, 'p'> => {
  const { appendId, idempotency: claim } = p.options;
  const prior = appendId ? staged.appends.get(appendId) : undefined;
  if (prior) return { answer: { result: prior }, records: [] };
  const recorded = claim && staged.idempotency.get(claim.scope);
  if (recorded) return { answer: { replays: recorded }, records: [] };
  assertNoNul('stream name', p.streamName);
  const projectId = projectOf(p.streamName);
  assertNoNul('project id', projectId);
  const downcast = p.options.schema?.versioning?.downcast as ((e: Event) => Event) | undefined;
  const events = downcast ? p.events.map(downcast) : p.events;
  const plan = planStaged(staged, {
    streamName: p.streamName,
    events,
    meta: p.options.meta ?? SYSTEM_META,
    expected: p.options.expectedStreamVersion,
    streamVersion: staged.streams.get(p.streamName)!,
    projectHead: staged.projects.get(projectId)!,
    globalPosition: staged.global,
    catalog,
    keyFor: (s) => keyFor(staged, s),
    now,
  });
  const last = plan.records.at(-1)!;
  const result = appendResult(plan);
  for (const r of plan.records) {
    const pos = be64(r.global_position);
    ops.put(Keys.global(r.global_position), encode(r));
    ops.put(Keys.stream(r.stream_name, r.stream_version), pos);
    ops.put(Keys.project(r.project_id, r.cursor), pos);
  }
  for (const s of staged.newKeys) ops.put(Keys.key(s), Buffer.from(staged.keys.get(s)!));
  staged.newKeys.clear();
  if (claim) {
    const record = idempotencyRecord(claim, last.global_position);
    staged.idempotency.set(claim.scope, record);
    ops.put(Keys.idempotency(claim.scope), encode(record));
  }
  if (appendId) {
    staged.appends.set(appendId, result);
    ops.put(Keys.append(appendId), encode(result));
  }
  staged.global = last.global_position;
  staged.streams.set(p.streamName, plan.streamVersion);
  staged.projects.set(projectId, plan.projectHead);
  staged.moved.streams.add(p.streamName);
  staged.moved.projects.add(projectId);
  return { answer: { result }, records: plan.records };
};
