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

/** Work that must see no batch open or in flight (a shred, an import). */
type Job = { job: () => Promise<void> };

/**
 * What one batch knows and has decided: heads, idempotency and append records, content keys.
 * What its appends need comes from the batch being written when it was opened (`base`, whose
 * decisions are not durable yet), else from the durable caches, else from one `getMany`.
 * Merged into the caches only once durable.
 */
type Staged = {
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
type Settled = {
  p: Pending;
  records: StoredRecord[];
  answer: { result: LogAppendResult } | { replays: IdempotencyRecord };
};

type Batch = {
  staged: Staged;
  ops: ReturnType<LevelDb['batch']>;
  settled: Settled[];
  /** the batch it was staged on failed to write: its appends went back to the queue, first */
  discarded?: { requeued: number };
  /** a lookup for it is out: it may not be sealed, its maps hold placeholders */
  prefetching?: boolean;
};

const CACHE_LIMIT = 100_000;

const remember = <K, V>(cache: Map<K, V>, entries: Map<K, V>): void => {
  if (cache.size + entries.size > CACHE_LIMIT) cache.clear();
  for (const [k, v] of entries) cache.set(k, v);
};

const projectOf = (streamName: string): string => parseStreamName(streamName)?.projectId ?? '';

/**
 * Group commit, pipelined. Appends are staged (checked, hashed, encoded) into the open batch as
 * they arrive, while the batch before it is being made durable; the open batch is written the
 * moment the disk is free, with everything staged by then. So the CPU work of one batch overlaps
 * the fsync of the one before, and concurrent writers share fsyncs. Each append is settled on its
 * own: one conflict fails one caller. A batch is acknowledged only once durable, batches are
 * written one at a time and in order, and when one fails to write, what was staged on top of it is
 * staged again against what is durable.
 */
export const groupCommitter = async (deps: {
  db: LevelDb;
  catalog: Catalog;
  reader: LevelReader;
  live: Subject<LogEvent>;
  onCommit?: (events: LogEvent[]) => void;
}) => {
  const { db, catalog, reader, live } = deps;
  // durable state: what readers are answered from
  let global = await reader.head();
  const streamHeads = new Map<string, number>();
  const projectHeads = new Map<string, ProjectHead>();

  const queue: (Pending | Job)[] = [];
  let open: Batch | undefined;
  /** the batch being written, until its callers are settled */
  let writing: { batch: Batch; done: Promise<void> } | undefined;
  let flushing: Promise<void> | undefined;
  let arrived: (() => void) | undefined;

  const stored = async <T>(key: Buffer): Promise<T | undefined> => {
    const value = await db.get(key);
    return value === undefined ? undefined : decode<T>(value);
  };

  const openBatch = (): Batch => {
    const base = writing?.batch.staged;
    return {
      staged: {
        base,
        global: base?.global ?? global,
        streams: new Map(),
        projects: new Map(),
        idempotency: new Map(),
        appends: new Map(),
        keys: new Map(),
        newKeys: new Set(),
        moved: { streams: new Set(), projects: new Set() },
      },
      ops: db.batch(),
      settled: [],
    };
  };

  /** Fills the batch's maps with everything a group needs: one round trip for what is not known. */
  const prefetch = async (group: Pending[], staged: Staged): Promise<void> => {
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
        streamHeads,
        () => Keys.streamHead(p.streamName),
        (b) => (b ? readBe64(b) : 0),
      );
      want(
        (s) => s.projects,
        project,
        projectHeads,
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

  const stage = (p: Pending, { staged, ops }: Batch, now: Date): Omit<Settled, 'p'> => {
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
      now,
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

  /**
   * The open batch was staged on the heads and chain of a batch that failed to write: nothing
   * of it was written, so its appends go back to the front of the queue, to be checked again
   * against what is durable.
   */
  const restage = (batch: Batch): void => {
    batch.discarded = { requeued: batch.settled.length };
    open = undefined;
    queue.unshift(...batch.settled.map((s) => s.p));
    batch.ops.close().catch(() => {});
  };

  /** Prefetches for a group of appends and stages each into the open batch. */
  const stageGroup = async (group: Pending[]): Promise<void> => {
    const batch = (open ??= openBatch());
    batch.prefetching = true;
    try {
      await prefetch(group, batch.staged);
    } catch (error) {
      for (const p of group) p.reject(error);
      return;
    } finally {
      batch.prefetching = false;
    }
    if (batch.discarded) {
      queue.splice(batch.discarded.requeued, 0, ...group);
      return;
    }
    const now = new Date();
    for (const p of group) {
      try {
        batch.settled.push({ p, ...stage(p, batch, now) });
      } catch (error) {
        // A key this failed append created is not in the batch: forget it, or a later append of
        // the batch would seal under a key that is never written.
        const { staged } = batch;
        for (const subject of staged.newKeys) staged.keys.delete(subject);
        staged.newKeys.clear();
        p.reject(error);
      }
    }
  };

  const settle = async (batch: Batch): Promise<void> => {
    const { staged, ops, settled } = batch;
    try {
      for (const name of staged.moved.streams)
        ops.put(Keys.streamHead(name), be64(staged.streams.get(name)!));
      for (const id of staged.moved.projects)
        ops.put(Keys.projectHead(id), encode(staged.projects.get(id)));
      if (ops.length > 0) await ops.write({ sync: true });
      else await ops.close();
    } catch (error) {
      if (open) restage(open);
      for (const { p } of settled) p.reject(error);
      return;
    }
    staged.base = undefined; // durable now, and in the caches below: let it go
    global = staged.global;
    remember(streamHeads, staged.streams);
    remember(projectHeads, staged.projects);
    for (const [s, key] of staged.keys) if (key) reader.rememberKey(s, key);
    // Callers are told, and live subscribers fed, batch after batch in log order.
    const publishing = published.then(() => publish(settled));
    published = publishing.catch(() => {}); // its error is this batch's, raised below
    // The disk is free: the next batch goes now, not after this one's callers have run on.
    if (open && !open.prefetching) {
      observe(settled.length + open.settled.length + queue.length);
      writeOpen();
    }
    await publishing;
  };

  let published: Promise<void> = Promise.resolve();
  const publish = async (settled: Settled[]): Promise<void> => {
    const records = settled.flatMap((s) => s.records);
    const events = records.length > 0 ? await reader.view(records) : [];
    deps.onCommit?.(events);
    for (const { p, answer } of settled)
      if ('replays' in answer) p.reject(new IdempotencyReplayError(answer.replays));
      else p.resolve(answer.result);
    for (const e of events) live.next(e);
  };

  /** Writes the open batch now: the disk is free. */
  const writeOpen = (): void => {
    const batch = open!;
    open = undefined;
    const done = settle(batch).finally(() => {
      if (writing?.batch === batch) writing = undefined;
    });
    writing = { batch, done };
  };

  const runJob = async (job: Job): Promise<void> => {
    await job.job();
  };

  const nextArrival = () => new Promise<void>((resolve) => (arrived = resolve));

  // Closed-loop writers (each waits for its append before its next command) cannot share one
  // fsync and also overlap their CPU with it: a batch holds at most half of the appenders seen
  // lately, so one half's commands, hashing and encoding run while the other half's batch is
  // made durable. With a single appender this is one append per batch, as it must be.
  let appenders = 1;
  const observe = (seen: number): void => {
    appenders = Math.max(1, seen, Math.floor(appenders * 0.9));
  };
  const room = (): number => Math.ceil(appenders / 2) - (open?.settled.length ?? 0);

  const flush = async (): Promise<void> => {
    for (;;) {
      if (open && !writing) {
        observe(open.settled.length + queue.length);
        writeOpen();
      }
      const next = queue[0];
      const space = room();
      if (next && !('job' in next) && space > 0) {
        const end = queue.findIndex((item) => 'job' in item);
        await stageGroup(
          queue.splice(0, Math.min(space, end < 0 ? queue.length : end)) as Pending[],
        );
      } else if (writing) await (next ? writing.done : Promise.race([writing.done, nextArrival()]));
      else if (next && 'job' in next) await runJob(queue.shift() as Job);
      else if (!next) break;
      // else: the open batch is full and the disk is free: it is written at the top
    }
    flushing = undefined;
  };

  const enqueue = (item: Pending | Job): void => {
    queue.push(item);
    arrived?.();
    arrived = undefined;
    flushing ??= flush();
  };

  /** Runs `job` with no batch open or being written, after every append queued before it. */
  const exclusive = <T>(job: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => enqueue({ job: () => job().then(resolve, reject) }));

  return {
    append: (streamName: string, events: Event[], options: LogAppendOptions<Event>) =>
      new Promise<LogAppendResult>((resolve, reject) =>
        enqueue({ streamName, events, options, resolve, reject }),
      ),
    /** The version of a stream's last durable event: the writer's heads are authoritative. */
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
