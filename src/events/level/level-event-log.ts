import {
  assertExpectedVersionMatchesCurrent,
  type AggregateStreamOptions,
  type Event,
  type ReadStreamOptions,
} from '@event-driven-io/emmett';
import { Observable, Subject } from '../rx.js';
import type { Catalog } from '../catalog/catalog.js';
import type { LogEvent } from '../envelope.js';
import { toReadEvent, type LogReadEvent } from '../record-view.js';
import {
  appendOneStream,
  assertDistinctStreams,
  type LogReadEventMetadata,
  type WriteFault,
} from '../event-log.js';
import { foldCache, type FoldEntry } from '../fold-cache.js';
import { snapshotSpecOf } from '../snapshots/declare.js';
import { foldTail } from '../snapshots/fold-tail.js';
import { snapshotAccess, snapshotKeeper } from '../snapshots/snapshot-keeper.js';
import { commitStats } from '../commit-stats.js';
import { openIdempotency, type StoredIdempotency } from '../idempotency-store.js';
import type { TransferableLog } from '../record-import.js';
import { aggregateStreamOver, readRange, streamReadResult } from '../stream-read.js';
import { Keys } from './keys.js';
import { compact, type LevelDb } from './level-db.js';
import { levelContentKeys, levelImport } from './level-import.js';
import { levelModelStore } from './level-model-store.js';
import { levelSnapshots } from './level-snapshots.js';
import { levelReader } from './level-reader.js';
import { groupCommitter } from './group-commit.js';
import { streamCache } from './stream-cache.js';

/**
 * The embedded log over one abstract-level database (classic-level on disk, memory-level in
 * tests). The process that opened the database is the only writer; appends go through group
 * commit and are acknowledged only once durable.
 */
export const levelEventLog = async (
  db: LevelDb,
  catalog: Catalog,
  /** why writes are refused (write-guard.ts), where the database is guarded */
  writeFault?: () => WriteFault | undefined,
): Promise<TransferableLog> => {
  const reader = levelReader(db, catalog);
  const live = new Subject<LogEvent>();
  const cache = streamCache();
  const folds = foldCache();
  const snapshots = levelSnapshots(db);
  const keeper = snapshotKeeper(snapshots);
  const opened = async (stored: StoredIdempotency) =>
    openIdempotency(stored, await reader.keysOf(stored.subjects ?? []));
  const committer = await groupCommitter({
    db,
    catalog,
    reader,
    live,
    onCommit: cache.committed,
    openIdempotency: opened,
  });

  /** The whole stream, read and cached if nothing landed meanwhile. */
  const wholeStream = async (name: string): Promise<LogReadEvent[]> => {
    const generation = cache.generation();
    const read = (await reader.readStream(name, 1, Number.MAX_SAFE_INTEGER)).map(toReadEvent);
    const version = read.at(-1)?.metadata.streamPosition ?? 0n;
    const complete = version === BigInt(committer.knownStreamVersion(name) ?? -1);
    if (complete && generation === cache.generation()) cache.put(name, read);
    return read;
  };

  const readStream = async <E extends Event, P extends Event = E>(
    name: string,
    options?: ReadStreamOptions<bigint, E, P>,
  ) => {
    // a command's load of a hot stream is answered from the writer's heads and cache, no await
    const current = committer.knownStreamVersion(name) ?? (await committer.streamVersion(name));
    assertExpectedVersionMatchesCurrent(BigInt(current), options?.expectedStreamVersion, 0n);
    const { from, to } = readRange(options);
    const whole =
      from <= 1 && to >= current
        ? (cache.get(name, current) ?? (await wholeStream(name)))
        : undefined;
    // a stream read from disk may have grown meanwhile: never answer past `to`
    const read = whole
      ? whole.length > to
        ? whole.slice(0, to)
        : whole
      : (await reader.readStream(name, from, to)).map(toReadEvent);
    return streamReadResult(read, current, options);
  };

  const aggregateAll = aggregateStreamOver(readStream);

  /** The events of a stream after `after`, up to `version`: from the cache, else from disk. */
  const eventsSince = async (name: string, version: number, after: number) =>
    cache.since(name, version, after) ??
    (await reader.readStream(name, after + 1, version)).map(toReadEvent);

  /**
   * A whole-stream fold (a command's load) starts from the state this fold last reached
   * (fold-cache.ts), else from its persisted snapshot (snapshots/), and folds only what was
   * appended since. Reads with options (a range, an expected version, a schema) fold the events
   * read, as Emmett does.
   */
  const aggregateStream = async <State, E extends Event, P extends Event = E>(
    name: string,
    options: AggregateStreamOptions<State, E, LogReadEventMetadata, P>,
  ) => {
    if (options.read) return aggregateAll(name, options);
    const generation = cache.generation();
    const began = keeper.epoch();
    const current = committer.knownStreamVersion(name) ?? (await committer.streamVersion(name));
    const evolve = options.evolve as (state: State, event: unknown) => State;
    const spec = snapshotSpecOf(evolve);
    const hit = folds.get(evolve, name);
    const from: FoldEntry = (hit && hit.version <= current ? hit : undefined) ??
      (spec && current > 0 ? await keeper.load(spec, name, current) : undefined) ?? {
        state: options.initialState(),
        version: 0,
      };
    const tail = from.version === current ? [] : await eventsSince(name, current, from.version);
    const { entry, ms } = foldTail(from, tail, evolve, current);
    if (generation === cache.generation()) {
      folds.set(evolve, name, entry);
      if (spec) keeper.consider(spec, name, entry, ms, began);
    }
    return {
      currentStreamVersion: BigInt(current),
      state: entry.state as State,
      streamExists: current > 0,
    };
  };

  const log: TransferableLog = {
    readStream,
    aggregateStream,
    appendToStream: (name, events, options) =>
      appendOneStream(committer.append, name, events, options),
    appendToStreams: async (appends, options) => {
      assertDistinctStreams(appends);
      return committer.append(appends, options ?? {});
    },
    streamExists: async (name) => (await committer.streamVersion(name)) > 0,
    readAll: ({ after, limit }) => reader.readAll(after, limit),
    readProject: (projectId, { after, limit }) => reader.readProject(projectId, after, limit),
    readRaw: ({ after, limit }) => reader.readRaw(after, limit),
    head: async () => committer.head(),
    live: () =>
      new Observable<LogEvent>((subscriber) => {
        commitStats.subscribed();
        const subscription = live.subscribe(subscriber);
        return () => {
          commitStats.unsubscribed();
          subscription.unsubscribe();
        };
      }),
    getIdempotency: async (scope) => {
      const stored = await committer.idempotency(scope);
      return stored && opened(stored);
    },
    async shred(subject) {
      const key = Keys.key(subject);
      await committer.exclusive(async () => {
        await db.batch().del(key).write({ sync: true });
        reader.forgetKey(subject);
        cache.clear();
        folds.clear();
        // a snapshot may hold the content in clear (once opened): none outlives a shred
        await keeper.invalidate();
      });
      await compact(db, key, Buffer.concat([key, Buffer.of(0)]));
    },
    contentKeys: (subjects) => levelContentKeys(db, subjects),
    // between commit groups, like a shred: no append is staged against the heads it moves
    importRecords: (records, keys) =>
      committer.exclusive(async () => {
        const imported = await levelImport(db, reader, committer.head(), records, keys);
        committer.imported(imported.head);
        for (const [subject, key] of imported.keys) reader.rememberKey(subject, key);
        cache.clear();
        folds.clear();
        await keeper.invalidate();
      }),
    models: levelModelStore(db, reader.keysOf, undefined, reader.shreds),
    snapshots: snapshotAccess(snapshots, keeper),
    writeFault: async () => writeFault?.(),
    async close() {
      await committer.drain();
      await keeper.settled();
      live.complete();
      await db.close();
    },
  };
  return log;
};
