import type { Event } from '@event-driven-io/emmett';
import type { Subject } from 'rxjs';
import { planAppend, type ProjectHead } from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { decode, encode } from '../codec.js';
import { GENESIS_HASH, type LogEvent, type StoredRecord } from '../envelope.js';
import {
  IdempotencyReplayError,
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
import type { LevelReader } from './level-reader.js';

type Pending = {
  streamName: string;
  events: Event[];
  options: LogAppendOptions<Event>;
  resolve: (result: LogAppendResult) => void;
  reject: (error: unknown) => void;
};

/**
 * What one group knows and has decided: heads, idempotency and append records, content keys.
 * Filled by one prefetch, advanced by each staged append, merged into the caches only once the
 * batch is durable.
 */
type Staged = {
  global: number;
  streams: Map<string, number>;
  projects: Map<string, ProjectHead>;
  idempotency: Map<string, IdempotencyRecord | undefined>;
  appends: Map<string, LogAppendResult | undefined>;
  keys: Map<string, Uint8Array | undefined>;
  /** subjects whose content key this group creates */
  newKeys: Set<string>;
};

const CACHE_LIMIT = 100_000;

const remember = <K, V>(cache: Map<K, V>, entries: Map<K, V>): void => {
  if (cache.size + entries.size > CACHE_LIMIT) cache.clear();
  for (const [k, v] of entries) cache.set(k, v);
};

const projectOf = (streamName: string): string => parseStreamName(streamName)?.projectId ?? '';

/**
 * Group commit: appends queue while a batch is being made durable; the next batch takes all of
 * them, reads everything they need in one `getMany`, checks each one's expected version against
 * the heads the group has reached, and writes one `sync: true` batch. Each append is settled on
 * its own: one conflict fails one caller.
 */
export const groupCommitter = async (deps: {
  db: LevelDb;
  catalog: Catalog;
  reader: LevelReader;
  live: Subject<LogEvent>;
  /** on disk: batches are fsynced, and worth filling */
  durable: boolean;
  onCommit?: (events: LogEvent[]) => void;
}) => {
  const { db, catalog, reader, live } = deps;
  let global = await reader.head();
  const streamHeads = new Map<string, number>();
  const projectHeads = new Map<string, ProjectHead>();
  const queue: Pending[] = [];
  let flushing: Promise<void> | undefined;

  const stored = async <T>(key: Buffer): Promise<T | undefined> => {
    const value = await db.get(key);
    return value === undefined ? undefined : decode<T>(value);
  };

  /** One round trip for everything a group needs that the caches do not hold. */
  const prefetch = async (group: Pending[]): Promise<Staged> => {
    const staged: Staged = {
      global,
      streams: new Map(),
      projects: new Map(),
      idempotency: new Map(),
      appends: new Map(),
      keys: new Map(),
      newKeys: new Set(),
    };
    const wanted: { key: Buffer; fill: (value: Buffer | undefined) => void }[] = [];
    const want = <V>(map: Map<string, V>, id: string, key: Buffer, read: (b?: Buffer) => V) => {
      if (map.has(id)) return;
      map.set(id, undefined as V);
      wanted.push({ key, fill: (b) => map.set(id, read(b)) });
    };
    for (const p of group) {
      // cached heads are copied now: the caches may be trimmed while the lookups are out
      const project = projectOf(p.streamName);
      const streamHead = streamHeads.get(p.streamName);
      if (streamHead !== undefined) staged.streams.set(p.streamName, streamHead);
      else
        want(staged.streams, p.streamName, Keys.streamHead(p.streamName), (b) =>
          b ? readBe64(b) : 0,
        );
      const projectHead = projectHeads.get(project);
      if (projectHead) staged.projects.set(project, projectHead);
      else
        want(staged.projects, project, Keys.projectHead(project), (b) =>
          b ? decode<ProjectHead>(b) : { cursor: 0, hash: GENESIS_HASH },
        );
      const { appendId, idempotency } = p.options;
      if (appendId)
        want(staged.appends, appendId, Keys.append(appendId), (b) => (b ? decode(b) : undefined));
      if (idempotency)
        want(staged.idempotency, idempotency.scope, Keys.idempotency(idempotency.scope), (b) =>
          b ? decode(b) : undefined,
        );
      for (const e of p.events) {
        const subject = sealSubjectOf(e);
        if (subject) want(staged.keys, subject, Keys.key(subject), (b) => b);
      }
    }
    if (wanted.length > 0) {
      const values = await db.getMany(wanted.map((w) => w.key));
      wanted.forEach((w, i) => w.fill(values[i]));
    }
    return staged;
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

  const stage = (p: Pending, staged: Staged, batch: ReturnType<LevelDb['batch']>) => {
    const { appendId, idempotency: claim } = p.options;
    const prior = appendId ? staged.appends.get(appendId) : undefined;
    if (prior) return { result: prior, records: [] as StoredRecord[] };
    const recorded = claim && staged.idempotency.get(claim.scope);
    if (recorded) throw new IdempotencyReplayError(recorded);
    assertNoNul('stream name', p.streamName);
    const projectId = projectOf(p.streamName);
    assertNoNul('project id', projectId);
    const downcast = p.options.schema?.versioning?.downcast as ((e: Event) => Event) | undefined;
    const events = downcast ? p.events.map(downcast) : p.events;
    const plan = planAppend({
      streamName: p.streamName,
      events,
      meta: p.options.meta ?? SYSTEM_META,
      expected: p.options.expectedStreamVersion,
      streamVersion: staged.streams.get(p.streamName)!,
      projectHead: staged.projects.get(projectId)!,
      globalPosition: staged.global,
      catalog,
      keyFor: (s) => keyFor(staged, s),
    });
    const last = plan.records.at(-1)!;
    const result: LogAppendResult = {
      nextExpectedStreamVersion: BigInt(plan.streamVersion),
      createdNewStream: plan.records[0]!.stream_version === 1,
      lastEventGlobalPosition: BigInt(last.global_position),
      lastCursor: last.cursor,
    };
    for (const r of plan.records) {
      const pos = be64(r.global_position);
      batch.put(Keys.global(r.global_position), encode(r));
      batch.put(Keys.stream(r.stream_name, r.stream_version), pos);
      batch.put(Keys.project(r.project_id, r.cursor), pos);
    }
    batch.put(Keys.streamHead(p.streamName), be64(plan.streamVersion));
    batch.put(Keys.projectHead(projectId), encode(plan.projectHead));
    for (const s of staged.newKeys) batch.put(Keys.key(s), Buffer.from(staged.keys.get(s)!));
    staged.newKeys.clear();
    if (claim) {
      const record = idempotencyRecord(claim, last.global_position);
      staged.idempotency.set(claim.scope, record);
      batch.put(Keys.idempotency(claim.scope), encode(record));
    }
    if (appendId) {
      staged.appends.set(appendId, result);
      batch.put(Keys.append(appendId), encode(result));
    }
    staged.global = last.global_position;
    staged.streams.set(p.streamName, plan.streamVersion);
    staged.projects.set(projectId, plan.projectHead);
    return { result, records: plan.records };
  };

  const commit = async (group: Pending[]): Promise<void> => {
    let staged: Staged;
    try {
      staged = await prefetch(group);
    } catch (error) {
      for (const p of group) p.reject(error);
      return;
    }
    const batch = db.batch();
    const settled: { p: Pending; result: LogAppendResult; records: StoredRecord[] }[] = [];
    for (const p of group) {
      try {
        settled.push({ p, ...stage(p, staged, batch) });
      } catch (error) {
        // A key this failed append created is not in the batch: forget it, or a later append of
        // the group would seal under a key that is never written.
        for (const subject of staged.newKeys) staged.keys.delete(subject);
        staged.newKeys.clear();
        p.reject(error);
      }
    }
    try {
      if (batch.length > 0) await batch.write({ sync: true });
      else await batch.close();
    } catch (error) {
      for (const { p } of settled) p.reject(error);
      return;
    }
    global = staged.global;
    remember(streamHeads, staged.streams);
    remember(projectHeads, staged.projects);
    for (const [s, key] of staged.keys) if (key) reader.rememberKey(s, key);
    const records = settled.flatMap((s) => s.records);
    const events = records.length > 0 ? await reader.view(records) : [];
    deps.onCommit?.(events);
    for (const { p, result } of settled) p.resolve(result);
    for (const e of events) live.next(e);
  };

  // On disk, yield one turn of the event loop before taking a group: the callers the last batch
  // just acknowledged (and the rest of a burst) queue their next appends in that turn, so
  // concurrent writers share one fsync instead of splitting into cohorts that alternate
  // half-full batches. In memory there is no fsync to share, and memory-level answers through
  // microtasks only: a reader looping on it would never let that turn come.
  const nextTurn = deps.durable
    ? () => new Promise<void>((resolve) => setImmediate(resolve))
    : () => Promise.resolve();
  // An exclusive job (a shred) runs between groups: no group is staged or written meanwhile.
  let barrier: Promise<void> | undefined;
  let committing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    await nextTurn();
    while (queue.length > 0) {
      while (barrier) await barrier;
      committing = commit(queue.splice(0));
      await committing;
      committing = undefined;
      await nextTurn();
    }
    flushing = undefined;
  };
  const exclusive = async <T>(job: () => Promise<T>): Promise<T> => {
    while (barrier) await barrier;
    let release = (): void => {};
    barrier = new Promise<void>((resolve) => (release = resolve));
    try {
      while (committing) await committing;
      return await job();
    } finally {
      barrier = undefined;
      release();
    }
  };

  return {
    append: (streamName: string, events: Event[], options: LogAppendOptions<Event>) =>
      new Promise<LogAppendResult>((resolve, reject) => {
        queue.push({ streamName, events, options, resolve, reject });
        flushing ??= flush();
      }),
    /** The version of a stream's last event: the writer's heads are authoritative. */
    streamVersion: async (name: string): Promise<number> => {
      const cached = streamHeads.get(name);
      if (cached !== undefined) return cached;
      const version = await reader.streamVersion(name);
      // a commit may have landed while we read: never overwrite a newer head
      if (!streamHeads.has(name)) {
        if (streamHeads.size > CACHE_LIMIT) streamHeads.clear();
        streamHeads.set(name, version);
      }
      return streamHeads.get(name)!;
    },
    knownStreamVersion: (name: string): number | undefined => streamHeads.get(name),
    idempotency: (scope: string) => stored<IdempotencyRecord>(Keys.idempotency(scope)),
    head: () => global,
    /** Records were imported in an exclusive job (level-import.ts): their head, no cached heads. */
    imported: (head: number): void => {
      global = head;
      streamHeads.clear();
      projectHeads.clear();
    },
    exclusive,
    drain: async () => {
      while (flushing) await flushing;
    },
  };
};
