import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import type { Subject } from 'rxjs';
import type { Catalog } from '../catalog/catalog.js';
import { decode } from '../codec.js';
import type { LogEvent } from '../envelope.js';
import { toLogEvent } from '../record-view.js';
import {
  IdempotencyReplayError,
  type IdempotencyRecord,
  type MultiAppendOptions,
  type MultiAppendResult,
  type StreamAppend,
} from '../event-log.js';
import type { StoredIdempotency } from '../idempotency-store.js';
import {
  newStaged,
  prefetch,
  stage,
  type DurableHeads,
  type LevelBatch,
  type Pending,
  type Settled,
  type Staged,
} from './batch-staging.js';
import { commitStats } from '../commit-stats.js';
import { Keys } from './keys.js';
import { getNow, type LevelDb } from './level-db.js';
import type { LevelReader } from './level-reader.js';

/** Work that must see no batch open or in flight (a shred, an import). */
type Job = { job: () => Promise<void> };

type Batch = {
  staged: Staged;
  ops: LevelBatch;
  settled: Settled[];
  /** appends refused for a version conflict, told once the batch is durable (see stageGroup) */
  refused: { p: Pending; error: unknown }[];
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
  /** opens a stored idempotency record (its sealed response) for a caller it replays to */
  openIdempotency: (stored: StoredIdempotency) => Promise<IdempotencyRecord>;
}) => {
  const { db, catalog, reader, live } = deps;
  // durable state: what readers are answered from
  let global = await reader.head();
  const heads: DurableHeads = { streams: new Map(), projects: new Map() };
  const { streams: streamHeads, projects: projectHeads } = heads;

  const queue: (Pending | Job)[] = [];
  let open: Batch | undefined;
  /** the batch being written, until its callers are settled */
  let writing: { batch: Batch; done: Promise<void> } | undefined;
  let flushing: Promise<void> | undefined;
  let arrived: (() => void) | undefined;

  const stored = async <T>(key: Buffer): Promise<T | undefined> => {
    const value = await getNow(db, key);
    return value === undefined ? undefined : decode<T>(value);
  };

  const openBatch = (): Batch => ({
    staged: newStaged(writing?.batch.staged, global),
    ops: db.batch(),
    settled: [],
    refused: [],
  });

  /**
   * The open batch was staged on the heads and chain of a batch that failed to write: nothing
   * of it was written, so its appends go back to the front of the queue, to be checked again
   * against what is durable.
   */
  const restage = (batch: Batch): void => {
    const appends = [...batch.settled.map((s) => s.p), ...batch.refused.map((r) => r.p)];
    batch.discarded = { requeued: appends.length };
    open = undefined;
    queue.unshift(...appends);
    batch.ops.close().catch(() => {});
  };

  /** Prefetches for a group of appends and stages each into the open batch. */
  const stageGroup = async (group: Pending[]): Promise<void> => {
    const batch = (open ??= openBatch());
    batch.prefetching = true;
    try {
      await prefetch(db, reader, heads, group, batch.staged);
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
        batch.settled.push({ p, ...stage(catalog, p, batch.staged, batch.ops, now) });
      } catch (error) {
        // A conflict is most often with an append staged here or in the batch being written,
        // not durable yet: told now, the caller's retry would read the durable head it already
        // lost to and conflict again, then back off. Told with this batch, its retry reads the
        // head that beat it.
        if (isExpectedVersionConflictError(error)) batch.refused.push({ p, error });
        else p.reject(error);
      }
    }
  };

  const settle = async (batch: Batch): Promise<void> => {
    const { staged, ops, settled, refused } = batch;
    const started = performance.now();
    try {
      if (ops.length > 0) await ops.write({ sync: true });
      else await ops.close();
    } catch (error) {
      if (open) restage(open);
      for (const { p } of [...settled, ...refused]) p.reject(error);
      return;
    }
    staged.base = undefined; // durable now, and in the caches below: let it go
    global = staged.global;
    remember(streamHeads, staged.streams);
    remember(projectHeads, staged.projects);
    for (const [s, key] of staged.keys) if (key) reader.rememberKey(s, key);
    // Seen with the heads, in the same turn: a command that finds a stream's new head finds
    // its events in the stream cache too, not a gap that sends it to disk. The batch's sealed
    // content is opened with the keys it was sealed under, all in `staged.keys`.
    const events = settled.flatMap((s) =>
      s.records.map((r) => toLogEvent(r, catalog, (subject) => staged.keys.get(subject))),
    );
    deps.onCommit?.(events);
    const durable = performance.now();
    commitStats.record({
      appends: settled.length,
      events: events.length,
      write_seconds: (durable - started) / 1000,
      waits: settled.map(({ p }) => (durable - (p.at ?? durable)) / 1000),
    });
    // The disk is free: the next batch goes now, not after this one's callers have run on.
    if (open && !open.prefetching) {
      observe(settled.length + open.settled.length + queue.length);
      writeOpen();
    }
    // Batches settle one at a time and in log order, so callers and live subscribers are told
    // in log order too.
    for (const { p, answer } of settled)
      if ('replays' in answer)
        deps
          .openIdempotency(answer.replays)
          .then((record) => p.reject(new IdempotencyReplayError(record)), p.reject);
      else p.resolve(answer.result);
    for (const { p, error } of refused) p.reject(error);
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
      else if (next && 'job' in next) await (queue.shift() as Job).job();
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
    append: (appends: readonly StreamAppend[], options: MultiAppendOptions) =>
      new Promise<MultiAppendResult>((resolve, reject) =>
        enqueue({ appends, options, resolve, reject, at: performance.now() }),
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
    idempotency: (scope: string) => stored<StoredIdempotency>(Keys.idempotency(scope)),
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
