import type { Event } from '@event-driven-io/emmett';
import { appendResult, planAppend, type ProjectHead } from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { GENESIS_HASH, type StoredRecord } from '../envelope.js';
import {
  IdempotencyReplayError,
  idempotencyRecord,
  SYSTEM_META,
  type IdempotencyRecord,
  type LogAppendOptions,
  type LogAppendResult,
} from '../event-log.js';
import { newSubjectKey, sealSubjectOf } from '../sealing.js';
import { projectOf } from '../stream-name.js';

export type PendingAppend = {
  streamName: string;
  events: Event[];
  options: LogAppendOptions<Event>;
};

/** The heads and records a group's appends depend on, read under the log's head lock. */
export type Loaded = {
  /** what the head row said: changes with every append and every shred */
  head: string;
  global: number;
  streams: Map<string, number>;
  projects: Map<string, ProjectHead>;
  idempotency: Map<string, IdempotencyRecord>;
  appends: Map<string, LogAppendResult>;
  keys: Map<string, Uint8Array>;
};

/** What one group will write: `Loaded` advanced by every append that passed, plus the rows. */
export type Staged = Loaded & {
  records: StoredRecord[];
  newIdempotency: Map<string, IdempotencyRecord>;
  newAppends: Map<string, LogAppendResult>;
  newKeys: Map<string, Uint8Array>;
  touchedStreams: Set<string>;
  touchedProjects: Set<string>;
};

const subjectsOf = (events: readonly Event[]): string[] =>
  events.flatMap((e) => sealSubjectOf(e) ?? []);

/** Everything a group will look up, so each lookup is one query for the whole group. */
export const lookupsOf = (group: readonly PendingAppend[]) => ({
  streams: [...new Set(group.map((p) => p.streamName))],
  projects: [...new Set(group.map((p) => projectOf(p.streamName)))],
  scopes: [...new Set(group.flatMap((p) => p.options.idempotency?.scope ?? []))],
  appendIds: [...new Set(group.flatMap((p) => p.options.appendId ?? []))],
  subjects: [...new Set(group.flatMap((p) => subjectsOf(p.events)))],
});

const assertNoNul = (what: string, value: string | undefined): void => {
  if (value?.includes('\u0000')) throw new TypeError(`${what} may not contain NUL`);
};

/**
 * PostgreSQL text cannot hold NUL. Checked before a group touches the database, so such an id
 * fails its own append with a TypeError rather than the group's lookup with a server error.
 */
export const assertStorableText = (p: PendingAppend): void => {
  assertNoNul('stream name', p.streamName);
  assertNoNul('project id', projectOf(p.streamName));
  assertNoNul('idempotency scope', p.options.idempotency?.scope);
  assertNoNul('append id', p.options.appendId);
  for (const subject of subjectsOf(p.events)) assertNoNul('seal subject', subject);
  for (const event of p.events) assertNoNul('event type', event.type);
};

export const newStaged = (loaded: Loaded): Staged => ({
  ...loaded,
  records: [],
  newIdempotency: new Map(),
  newAppends: new Map(),
  newKeys: new Map(),
  touchedStreams: new Set(),
  touchedProjects: new Set(),
});

/**
 * Stages one append against what the group has reached so far. Throws (failing this append
 * alone) on a replayed idempotency scope, a version conflict or an invalid event; a replayed
 * appendId answers the first result and stages nothing. Nothing is changed before it passes.
 */
export const stageAppend = (
  p: PendingAppend,
  staged: Staged,
  catalog: Catalog,
): LogAppendResult => {
  const { appendId, idempotency: claim } = p.options;
  const prior = appendId ? staged.appends.get(appendId) : undefined;
  if (prior) return prior;
  const replay = claim ? staged.idempotency.get(claim.scope) : undefined;
  if (replay) throw new IdempotencyReplayError(replay);
  const projectId = projectOf(p.streamName);
  const downcast = p.options.schema?.versioning?.downcast as ((e: Event) => Event) | undefined;
  const events = downcast ? p.events.map(downcast) : p.events;
  const created = new Map<string, Uint8Array>();
  const keyFor = (subject: string): Uint8Array => {
    const key = staged.keys.get(subject) ?? created.get(subject) ?? newSubjectKey();
    if (!staged.keys.has(subject)) created.set(subject, key);
    return key;
  };
  const plan = planAppend({
    streamName: p.streamName,
    events,
    meta: p.options.meta ?? SYSTEM_META,
    expected: p.options.expectedStreamVersion,
    streamVersion: staged.streams.get(p.streamName) ?? 0,
    projectHead: staged.projects.get(projectId) ?? { cursor: 0, hash: GENESIS_HASH },
    globalPosition: staged.global,
    catalog,
    keyFor,
  });
  const result = appendResult(plan);
  record(staged, { p, projectId, plan, result, created });
  return result;
};

const record = (
  staged: Staged,
  passed: {
    p: PendingAppend;
    projectId: string;
    plan: ReturnType<typeof planAppend>;
    result: LogAppendResult;
    created: Map<string, Uint8Array>;
  },
): void => {
  const { p, projectId, plan, result, created } = passed;
  const last = plan.records.at(-1)!;
  staged.records.push(...plan.records);
  staged.global = last.global_position;
  staged.streams.set(p.streamName, plan.streamVersion);
  staged.touchedStreams.add(p.streamName);
  staged.projects.set(projectId, plan.projectHead);
  staged.touchedProjects.add(projectId);
  for (const [subject, key] of created) {
    staged.keys.set(subject, key);
    staged.newKeys.set(subject, key);
  }
  const claim = p.options.idempotency;
  if (claim) {
    const idem = idempotencyRecord(claim, last.global_position);
    staged.idempotency.set(claim.scope, idem);
    staged.newIdempotency.set(claim.scope, idem);
  }
  if (p.options.appendId) {
    staged.appends.set(p.options.appendId, result);
    staged.newAppends.set(p.options.appendId, result);
  }
};
