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
import type { StoredRecord } from '../envelope.js';
import {
  idempotencyRecord,
  SYSTEM_META,
  type IdempotencyRecord,
  type LogAppendOptions,
  type LogAppendResult,
} from '../event-log.js';
import { newSubjectKey, sealSubjectOf } from '../sealing.js';
import { projectOf } from '../stream-name.js';
import { assertNoNul, be64, Keys } from './keys.js';
import type { LevelDb } from './level-db.js';
import type { LevelReader } from './level-reader.js';

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
});

/** How a batch learns what it does not know: a key read in the batch's one `getMany`, or a lookup. */
type Fetch<V> = { key: Buffer; read: (b?: Buffer) => V } | { load: () => Promise<V> };

/** A msgpack value read in the batch's `getMany`, undefined when absent. */
const storedAt = <V>(key: Buffer): Fetch<V | undefined> => ({
  key,
  read: (b) => (b ? decode<V>(b) : undefined),
});

/**
 * Fills the batch's maps with everything a group needs: what is not known from the batch before
 * it or the durable caches is read in one `getMany`, heads (derived from the indexes) alongside.
 */
export const prefetch = async (
  db: LevelDb,
  reader: LevelReader,
  heads: DurableHeads,
  group: Pending[],
  staged: Staged,
): Promise<void> => {
  const keyed: { key: Buffer; fill: (value: Buffer | undefined) => void }[] = [];
  const loads: Promise<void>[] = [];
  const placed: (() => void)[] = [];
  const want = <V>(
    of: (s: Staged) => Map<string, V>,
    id: string,
    cache: Map<string, V> | undefined,
    fetch: () => Fetch<V>,
  ) => {
    const own = of(staged);
    if (own.has(id)) return;
    // copied now: the caches may be trimmed while lookups are out
    const known = staged.base && of(staged.base).has(id) ? of(staged.base) : cache;
    if (known?.has(id)) return void own.set(id, known.get(id)!);
    own.set(id, undefined as V);
    placed.push(() => own.delete(id));
    const how = fetch();
    if ('load' in how) loads.push(how.load().then((v) => void own.set(id, v)));
    else keyed.push({ key: how.key, fill: (b) => own.set(id, how.read(b)) });
  };
  for (const p of group) {
    const project = projectOf(p.streamName);
    want(
      (s) => s.streams,
      p.streamName,
      heads.streams,
      () => ({
        load: () => reader.streamVersion(p.streamName),
      }),
    );
    want(
      (s) => s.projects,
      project,
      heads.projects,
      () => ({
        load: () => reader.projectHead(project),
      }),
    );
    const { appendId, idempotency } = p.options;
    if (appendId)
      want(
        (s) => s.appends,
        appendId,
        undefined,
        () => storedAt<LogAppendResult>(Keys.append(appendId)),
      );
    if (idempotency)
      want(
        (s) => s.idempotency,
        idempotency.scope,
        undefined,
        () => storedAt<IdempotencyRecord>(Keys.idempotency(idempotency.scope)),
      );
    for (const e of p.events) {
      const subject = sealSubjectOf(e);
      if (subject)
        want(
          (s) => s.keys,
          subject,
          undefined,
          () => ({
            key: Keys.key(subject),
            read: (b) => b,
          }),
        );
    }
  }
  const read = async () => {
    if (keyed.length === 0) return;
    const values = await db.getMany(keyed.map((w) => w.key));
    keyed.forEach((w, i) => w.fill(values[i]));
  };
  // Every lookup settles before this answers: none fills a map after a failure was reported.
  const failed = (await Promise.allSettled([read(), ...loads])).find(
    (r) => r.status === 'rejected',
  );
  if (failed) {
    // what this group left unknown must not read as known to the next group of the batch
    for (const forget of placed) forget();
    throw failed.reason;
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
  return { answer: { result }, records: plan.records };
};
