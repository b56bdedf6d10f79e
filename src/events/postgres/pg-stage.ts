import type { Event } from '@event-driven-io/emmett';
import { appendResult, planAppend, type Plan, type ProjectHead } from '../append-plan.js';
import type { Catalog } from '../catalog/catalog.js';
import { GENESIS_HASH, type StoredRecord } from '../envelope.js';
import {
  SYSTEM_META,
  type MultiAppendOptions,
  type MultiAppendResult,
  type StreamAppend,
} from '../event-log.js';
import { StoredReplay, storedIdempotency, type StoredIdempotency } from '../idempotency-store.js';
import { newSubjectKey, sealSubjectOf } from '../sealing.js';
import { projectOf } from '../stream-name.js';

/** One append: one stream or several, atomically. */
export type PendingAppend = {
  appends: readonly StreamAppend[];
  options: MultiAppendOptions;
};

/** The heads and records a group's appends depend on, read under the log's head lock. */
export type Loaded = {
  /** what the head row said: changes with every append and every shred */
  head: string;
  global: number;
  streams: Map<string, number>;
  projects: Map<string, ProjectHead>;
  idempotency: Map<string, StoredIdempotency>;
  appends: Map<string, MultiAppendResult>;
  keys: Map<string, Uint8Array>;
};

/** What one group will write: `Loaded` advanced by every append that passed, plus the rows. */
export type Staged = Loaded & {
  records: StoredRecord[];
  newIdempotency: Map<string, StoredIdempotency>;
  newAppends: Map<string, MultiAppendResult>;
  newKeys: Map<string, Uint8Array>;
  touchedStreams: Set<string>;
  touchedProjects: Set<string>;
};

const subjectsOf = (events: readonly Event[]): string[] =>
  events.flatMap((e) => sealSubjectOf(e) ?? []);

/** Everything a group will look up, so each lookup is one query for the whole group. */
export const lookupsOf = (group: readonly PendingAppend[]) => {
  const appends = group.flatMap((p) => p.appends);
  return {
    streams: [...new Set(appends.map((a) => a.streamName))],
    projects: [...new Set(appends.map((a) => projectOf(a.streamName)))],
    scopes: [...new Set(group.flatMap((p) => p.options.idempotency?.scope ?? []))],
    appendIds: [...new Set(group.flatMap((p) => p.options.appendId ?? []))],
    subjects: [...new Set(appends.flatMap((a) => subjectsOf(a.events)))],
  };
};

const assertNoNul = (what: string, value: string | undefined): void => {
  if (value?.includes('\u0000')) throw new TypeError(`${what} may not contain NUL`);
};

/**
 * PostgreSQL text cannot hold NUL. Checked before a group touches the database, so such an id
 * fails its own append with a TypeError rather than the group's lookup with a server error.
 */
export const assertStorableText = (p: PendingAppend): void => {
  assertNoNul('idempotency scope', p.options.idempotency?.scope);
  assertNoNul('append id', p.options.appendId);
  for (const { streamName, events } of p.appends) {
    assertNoNul('stream name', streamName);
    assertNoNul('project id', projectOf(streamName));
    for (const subject of subjectsOf(events)) assertNoNul('seal subject', subject);
    for (const event of events) assertNoNul('event type', event.type);
  }
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
 * Stages one append (every stream of it, all or nothing) against what the group has reached so
 * far. Throws (failing this append alone) on a replayed idempotency scope, a version conflict in
 * any of its streams or an invalid event; a replayed appendId answers the first result and
 * stages nothing. Nothing is changed before every stream passes.
 */
export const stageAppend = (
  p: PendingAppend,
  staged: Staged,
  catalog: Catalog,
): MultiAppendResult => {
  const { appendId, idempotency: claim } = p.options;
  const prior = appendId ? staged.appends.get(appendId) : undefined;
  if (prior) return prior;
  const replay = claim ? staged.idempotency.get(claim.scope) : undefined;
  if (replay) throw new StoredReplay(replay);
  const created = new Map<string, Uint8Array>();
  const keyFor = (subject: string): Uint8Array => {
    const key = staged.keys.get(subject) ?? created.get(subject) ?? newSubjectKey();
    if (!staged.keys.has(subject)) created.set(subject, key);
    return key;
  };
  const meta = p.options.meta ?? SYSTEM_META;
  const projects = new Map<string, ProjectHead>();
  let global = staged.global;
  const plans = p.appends.map(({ streamName, events, expectedStreamVersion }) => {
    const projectId = projectOf(streamName);
    const plan = planAppend({
      streamName,
      events,
      meta,
      expected: expectedStreamVersion,
      streamVersion: staged.streams.get(streamName) ?? 0,
      projectHead: projects.get(projectId) ??
        staged.projects.get(projectId) ?? { cursor: 0, hash: GENESIS_HASH },
      globalPosition: global,
      catalog,
      keyFor,
    });
    projects.set(projectId, plan.projectHead);
    global += plan.records.length;
    return plan;
  });
  const result = appendResult(plans, staged.global);
  record(staged, { p, plans, result, created, keyFor });
  return result;
};

const record = (
  staged: Staged,
  passed: {
    p: PendingAppend;
    plans: Plan[];
    result: MultiAppendResult;
    created: Map<string, Uint8Array>;
    keyFor: (subject: string) => Uint8Array;
  },
): void => {
  const { p, plans, result, created, keyFor } = passed;
  const subjects = new Set<string>();
  for (const plan of plans) {
    staged.records.push(...plan.records);
    for (const r of plan.records) if (r.sealed) subjects.add(r.sealed.subject);
    staged.streams.set(plan.streamName, plan.streamVersion);
    staged.touchedStreams.add(plan.streamName);
    staged.projects.set(plan.projectId, plan.projectHead);
    staged.touchedProjects.add(plan.projectId);
  }
  staged.global = Number(result.lastEventGlobalPosition);
  const claim = p.options.idempotency;
  if (claim) {
    const idem = storedIdempotency(claim, staged.global, [...subjects], keyFor);
    staged.idempotency.set(claim.scope, idem);
    staged.newIdempotency.set(claim.scope, idem);
  }
  for (const [subject, key] of created) {
    staged.keys.set(subject, key);
    staged.newKeys.set(subject, key);
  }
  if (p.options.appendId) {
    staged.appends.set(p.options.appendId, result);
    staged.newAppends.set(p.options.appendId, result);
  }
};
