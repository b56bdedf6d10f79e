// Staging for group commit (group-commit.ts): what a batch's appends need, read in one round
// trip, and each append checked, planned and put into the batch.
import { appendResult, planAppend, type Plan, type ProjectHead } from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { decode, encode } from '../codec.js';
import type { StoredRecord } from '../envelope.js';
import {
  storedAppendResult,
  SYSTEM_META,
  type LogAppendResult,
  type MultiAppendOptions,
  type MultiAppendResult,
  type StreamAppend,
} from '../event-log.js';
import { storedIdempotency, type StoredIdempotency } from '../idempotency-store.js';
import { newSubjectKey, sealSubjectOf } from '../sealing.js';
import { projectOf } from '../stream-name.js';
import { assertNoNul, be64, Keys } from './keys.js';
import type { LevelDb } from './level-db.js';
import type { LevelReader } from './level-reader.js';

/** One append: one stream (appendToStream) or several, atomically (appendToStreams). */
export type Pending = {
  appends: readonly StreamAppend[];
  options: MultiAppendOptions;
  resolve: (result: MultiAppendResult) => void;
  reject: (error: unknown) => void;
  /** performance.now() when it reached the committer (its wait, for /metrics) */
  at?: number;
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
  idempotency: Map<string, StoredIdempotency | undefined>;
  appends: Map<string, MultiAppendResult | undefined>;
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
  answer: { result: MultiAppendResult } | { replays: StoredIdempotency };
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
    for (const { streamName, events } of p.appends) {
      const project = projectOf(streamName);
      want(
        (s) => s.streams,
        streamName,
        heads.streams,
        () => ({ load: () => reader.streamVersion(streamName) }),
      );
      want(
        (s) => s.projects,
        project,
        heads.projects,
        () => ({ load: () => reader.projectHead(project) }),
      );
      for (const e of events) {
        const subject = sealSubjectOf(e);
        if (subject)
          want(
            (s) => s.keys,
            subject,
            undefined,
            () => ({ key: Keys.key(subject), read: (b) => b }),
          );
      }
    }
    const { appendId, idempotency } = p.options;
    if (appendId)
      want(
        (s) => s.appends,
        appendId,
        undefined,
        () => ({
          key: Keys.append(appendId),
          read: (b) => b && storedAppendResult(decode<MultiAppendResult | LogAppendResult>(b)),
        }),
      );
    if (idempotency)
      want(
        (s) => s.idempotency,
        idempotency.scope,
        undefined,
        () => storedAt<StoredIdempotency>(Keys.idempotency(idempotency.scope)),
      );
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
 * Plans every stream of one append against the batch, all or nothing: streams of one project
 * chain one after the other, and when any stream fails (a stale version, an invalid event) the
 * content keys the append created are forgotten: they are not in the batch, and a later append
 * of the batch would seal under a key never written.
 */
const planAll = (catalog: Catalog, p: Pending, staged: Staged, now: Date): Plan[] => {
  const meta = p.options.meta ?? SYSTEM_META;
  const projects = new Map<string, ProjectHead>();
  let global = staged.global;
  try {
    return p.appends.map(({ streamName, events, expectedStreamVersion }) => {
      assertNoNul('stream name', streamName);
      const projectId = projectOf(streamName);
      assertNoNul('project id', projectId);
      const plan = planAppend({
        streamName,
        events,
        meta,
        expected: expectedStreamVersion,
        streamVersion: staged.streams.get(streamName)!,
        projectHead: projects.get(projectId) ?? staged.projects.get(projectId)!,
        globalPosition: global,
        catalog,
        keyFor: (s) => keyFor(staged, s),
        now,
      });
      projects.set(projectId, plan.projectHead);
      global += plan.records.length;
      return plan;
    });
  } catch (error) {
    for (const subject of staged.newKeys) staged.keys.delete(subject);
    staged.newKeys.clear();
    throw error;
  }
};

const putRecords = (ops: LevelBatch, records: readonly StoredRecord[]): void => {
  for (const r of records) {
    const pos = be64(r.global_position);
    ops.put(Keys.global(r.global_position), encode(r));
    ops.put(Keys.stream(r.stream_name, r.stream_version), pos);
    ops.put(Keys.project(r.project_id, r.cursor), pos);
  }
};

/** The subjects an append sealed content under: its idempotency response is sealed under them. */
const sealedSubjects = (plans: readonly Plan[]): string[] => {
  const subjects = new Set<string>();
  for (const plan of plans)
    for (const r of plan.records) if (r.sealed) subjects.add(r.sealed.subject);
  return [...subjects];
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
  const plans = planAll(catalog, p, staged, now);
  const result = appendResult(plans, staged.global);
  const records = plans.length === 1 ? plans[0]!.records : plans.flatMap((plan) => plan.records);
  putRecords(ops, records);
  if (claim) {
    const position = Number(result.lastEventGlobalPosition);
    const stored = storedIdempotency(claim, position, sealedSubjects(plans), (s) =>
      keyFor(staged, s),
    );
    staged.idempotency.set(claim.scope, stored);
    ops.put(Keys.idempotency(claim.scope), encode(stored));
  }
  for (const s of staged.newKeys) ops.put(Keys.key(s), Buffer.from(staged.keys.get(s)!));
  staged.newKeys.clear();
  if (appendId) {
    staged.appends.set(appendId, result);
    ops.put(Keys.append(appendId), encode(result));
  }
  for (const plan of plans) {
    staged.streams.set(plan.streamName, plan.streamVersion);
    staged.projects.set(plan.projectId, plan.projectHead);
  }
  staged.global = Number(result.lastEventGlobalPosition);
  return { answer: { result }, records };
};
