import type { Event } from '@event-driven-io/emmett';
import type { Subject } from 'rxjs';
import { planAppend, type ProjectHead } from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { decode, encode } from '../codec.js';
import type { LogEvent, StoredRecord } from '../envelope.js';
import {
  IdempotencyReplayError,
  SYSTEM_META,
  type IdempotencyRecord,
  type LogAppendOptions,
  type LogAppendResult,
} from '../event-log.js';
import { newSubjectKey, sealSubjectOf } from '../sealing.js';
import { parseStreamName } from '../stream-name.js';
import { assertNoNul, be64, Keys } from './keys.js';
import type { LevelDb } from './level-db.js';
import type { LevelReader } from './level-reader.js';

type Pending = {
  streamName: string;
  events: Event[];
  options: LogAppendOptions<Event>;
  resolve: (result: LogAppendResult) => void;
  reject: (error: unknown) => void;
};

/** What one group has decided so far; merged into the caches only after the batch is durable. */
type Staged = {
  global: number;
  streams: Map<string, number>;
  projects: Map<string, ProjectHead>;
  idempotency: Map<string, IdempotencyRecord>;
  appends: Map<string, LogAppendResult>;
  keys: Map<string, Uint8Array>;
  /** subjects whose content key this group creates */
  newKeys: Set<string>;
};

const CACHE_LIMIT = 100_000;

const remember = <K, V>(cache: Map<K, V>, entries: Map<K, V>): void => {
  if (cache.size + entries.size > CACHE_LIMIT) cache.clear();
  for (const [k, v] of entries) cache.set(k, v);
};

/**
 * Group commit: appends queue while a batch is being made durable; the next batch takes all of
 * them, checks each one's expected version against the heads the group has reached, and writes
 * one `sync: true` batch. Each append is settled on its own: one conflict fails one caller.
 */
export const groupCommitter = async (deps: {
  db: LevelDb;
  catalog: Catalog;
  reader: LevelReader;
  live: Subject<LogEvent>;
}) => {
  const { db, catalog, reader, live } = deps;
  let global = await reader.head();
  const streamHeads = new Map<string, number>();
  const projectHeads = new Map<string, ProjectHead>();
  const queue: Pending[] = [];
  let flushing: Promise<void> | undefined;

  const streamVersion = async (name: string): Promise<number> => {
    const cached = streamHeads.get(name);
    if (cached !== undefined) return cached;
    const version = await reader.streamVersion(name);
    if (streamHeads.size > CACHE_LIMIT) streamHeads.clear();
    streamHeads.set(name, version);
    return version;
  };
  const projectHead = async (id: string): Promise<ProjectHead> =>
    projectHeads.get(id) ?? (await reader.projectHead(id));
  const stored = async <T>(key: Buffer): Promise<T | undefined> => {
    const value = await db.get(key);
    return value === undefined ? undefined : decode<T>(value);
  };
  const idempotency = (scope: string) => stored<IdempotencyRecord>(Keys.idempotency(scope));

  const loadKeys = async (subjects: string[], staged: Staged): Promise<void> => {
    const missing = subjects.filter((s) => !staged.keys.has(s));
    const found = await db.getMany(missing.map(Keys.key));
    missing.forEach((s, i) => {
      const key = found[i] ?? newSubjectKey();
      staged.keys.set(s, key);
      if (!found[i]) staged.newKeys.add(s);
    });
  };

  const stage = async (p: Pending, staged: Staged, batch: ReturnType<LevelDb['batch']>) => {
    const { appendId, idempotency: claim } = p.options;
    if (appendId) {
      const prior =
        staged.appends.get(appendId) ?? (await stored<LogAppendResult>(Keys.append(appendId)));
      if (prior) return { result: prior, records: [] as StoredRecord[] };
    }
    if (claim) {
      const prior = staged.idempotency.get(claim.scope) ?? (await idempotency(claim.scope));
      if (prior) throw new IdempotencyReplayError(prior);
    }
    assertNoNul('stream name', p.streamName);
    const projectId = parseStreamName(p.streamName)?.projectId ?? '';
    assertNoNul('project id', projectId);
    const downcast = p.options.schema?.versioning?.downcast as ((e: Event) => Event) | undefined;
    const events = downcast ? p.events.map(downcast) : p.events;
    await loadKeys(
      events.flatMap((e) => sealSubjectOf(e) ?? []),
      staged,
    );
    const plan = planAppend({
      streamName: p.streamName,
      events,
      meta: p.options.meta ?? SYSTEM_META,
      expected: p.options.expectedStreamVersion,
      streamVersion: staged.streams.get(p.streamName) ?? (await streamVersion(p.streamName)),
      projectHead: staged.projects.get(projectId) ?? (await projectHead(projectId)),
      globalPosition: staged.global,
      catalog,
      keyFor: (s) => staged.keys.get(s)!,
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
    for (const s of staged.newKeys) batch.put(Keys.key(s), Buffer.from(staged.keys.get(s)!));
    staged.newKeys.clear();
    if (claim) {
      const record = {
        fingerprint: claim.fingerprint,
        response: claim.response.value ?? null,
        position: last.global_position,
      };
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
    const batch = db.batch();
    const staged: Staged = {
      global,
      streams: new Map<string, number>(),
      projects: new Map<string, ProjectHead>(),
      idempotency: new Map<string, IdempotencyRecord>(),
      appends: new Map<string, LogAppendResult>(),
      keys: new Map<string, Uint8Array>(),
      newKeys: new Set<string>(),
    };
    const settled: { p: Pending; result: LogAppendResult; records: StoredRecord[] }[] = [];
    for (const p of group) {
      try {
        settled.push({ p, ...(await stage(p, staged, batch)) });
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
    for (const [s, key] of staged.keys) reader.contentKeys.set(s, key);
    const records = settled.flatMap((s) => s.records);
    const events = records.length > 0 ? await reader.view(records) : [];
    for (const { p, result } of settled) p.resolve(result);
    for (const e of events) live.next(e);
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0) await commit(queue.splice(0));
    flushing = undefined;
  };

  return {
    append: (streamName: string, events: Event[], options: LogAppendOptions<Event>) =>
      new Promise<LogAppendResult>((resolve, reject) => {
        queue.push({ streamName, events, options, resolve, reject });
        flushing ??= flush();
      }),
    streamVersion,
    idempotency,
    head: () => global,
    drain: async () => {
      while (flushing) await flushing;
    },
  };
};
