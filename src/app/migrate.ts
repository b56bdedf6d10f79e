import { createHash, type Hash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Catalog } from '../events/catalog/catalog.js';
import {
  canonicalJson,
  chainHash,
  GENESIS_HASH,
  verifyChain,
  type StoredRecord,
} from '../events/index.js';
import { openTransferableLog } from '../events/open-exclusive.js';
import { isPostgresUrl } from '../events/postgres/connection.js';
import { sealedSubjects, type TransferableLog } from '../events/record-import.js';

export type MigratePhase = 'checking source' | 'copying' | 'checking target';

export type MigrateOptions = {
  /** every event type the log may hold (the registry's catalog) */
  catalog: Catalog;
  /** a data dir or a postgres:// URL */
  from: string;
  to: string;
  /** only this project's events (else the whole log) */
  project?: string;
  onProgress?: (phase: MigratePhase, done: number, total: number) => void;
};

export type MigrateReport = {
  events: number;
  projects: number;
  /** sealed subjects whose content key was copied */
  keys: number;
  /** sealed subjects whose key the source had destroyed: shredded there, shredded here */
  shredded: number;
  /** global positions changed (a project moved into a log that holds others): chain re-linked */
  relocated: boolean;
};

/** A migration that cannot or must not run; nothing was written to the target. */
export class MigrateRefusedError extends Error {
  readonly code = 'migrate_refused';
}

const PAGE = 1000;

/** A location as messages name it: a URL without its password. */
export const describeLocation = (location: string): string => {
  if (!isPostgresUrl(location)) return resolve(location);
  const url = new URL(location);
  if (url.password) url.password = '***';
  return url.toString();
};

type Scope = { source: TransferableLog; head: number; project?: string };

/** The source's records in global order up to `head` (of the project, if one), page by page. */
const eachSourcePage = async (
  scope: Scope,
  body: (records: StoredRecord[], position: number) => Promise<void>,
): Promise<void> => {
  for (let after = 0; after < scope.head;) {
    const page = await scope.source.readRaw({ after, limit: PAGE });
    if (page.length === 0) break;
    const inScope = page.filter(
      (r) =>
        r.global_position <= scope.head &&
        (scope.project === undefined || r.project_id === scope.project),
    );
    after = page.at(-1)!.global_position;
    await body(inScope, Math.min(after, scope.head));
  }
};

type ChainHeads = Map<string, { cursor: number; hash: string }>;

/** Checks records against their projects' chains so far; throws naming the first bad one. */
const checkChains = (heads: ChainHeads, records: readonly StoredRecord[], where: string) => {
  for (const r of records) {
    const head = heads.get(r.project_id) ?? { cursor: 0, hash: GENESIS_HASH };
    const broken = verifyChain([r], head.hash, head.cursor);
    if (broken)
      throw new MigrateRefusedError(
        `${where}: chain check failed at event ${r.event_id} (project ${r.project_id}, ` +
          `cursor ${r.cursor}, position ${r.global_position}): ${broken.reason}`,
      );
    heads.set(r.project_id, { cursor: r.cursor, hash: r.hash });
  }
};

type Scan = { events: number; projects: number; subjects: Set<string> };

type Progress = (phase: MigratePhase, done: number, total: number) => void;

/** Pass 1: every chain of the source verifies, before anything is written. */
const scanSource = async (scope: Scope, progress: Progress): Promise<Scan> => {
  const heads: ChainHeads = new Map();
  const subjects = new Set<string>();
  let events = 0;
  let expected = 1;
  await eachSourcePage(scope, async (records, position) => {
    if (scope.project === undefined)
      for (const r of records)
        if (r.global_position !== expected++)
          throw new MigrateRefusedError(
            `source: position ${r.global_position} where ${expected - 1} was expected`,
          );
    checkChains(heads, records, 'source');
    for (const s of sealedSubjects(records)) subjects.add(s);
    events += records.length;
    progress('checking source', position, scope.head);
  });
  return { events, projects: heads.size, subjects };
};

/**
 * A project's records at the target's next positions. Positions are in every link's hash, so
 * the project's chain is re-linked from its genesis; everything else stays as it was.
 */
const relocate = (records: StoredRecord[], next: number, head: { hash: string }) =>
  records.map((r, i): StoredRecord => {
    const { hash: _old, ...moved } = { ...r, global_position: next + i, prev_hash: head.hash };
    const record = { ...moved, hash: chainHash(moved) };
    head.hash = record.hash;
    return record;
  });

type Copied = { events: number; keys: Map<string, Uint8Array>; digest: string; relocated: boolean };

/** Pass 2: the records as they are (or relocated), page by page, with their content keys. */
const copy = async (scope: Scope, target: TransferableLog, total: number, progress: Progress) => {
  const digest = createHash('sha256');
  const keys = new Map<string, Uint8Array>();
  const chain = { hash: GENESIS_HASH };
  let events = 0;
  let relocated = false;
  await eachSourcePage(scope, async (page) => {
    if (page.length === 0) return;
    const records =
      scope.project === undefined ? page : relocate(page, (await target.head()) + 1, chain);
    relocated ||= records.some((r, i) => r.global_position !== page[i]!.global_position);
    const pageKeys = await scope.source.contentKeys(sealedSubjects(records));
    await target.importRecords(records, pageKeys);
    for (const [subject, key] of pageKeys) keys.set(subject, key);
    for (const r of records) digest.update(`${canonicalJson(r)}\n`);
    events += records.length;
    progress('copying', events, total);
  });
  return { events, keys, digest: digest.digest('hex'), relocated } satisfies Copied;
};

/** Pass 3: what arrived is what was sent, its chains verify, and its keys open its content. */
const checkTarget = async (
  target: TransferableLog,
  start: number,
  scope: Scope,
  copied: Copied,
  progress: Progress,
) => {
  const heads: ChainHeads = new Map();
  const digest: Hash = createHash('sha256');
  let seen = 0;
  for (let after = start; seen < copied.events;) {
    const page = await target.readRaw({ after, limit: PAGE });
    if (page.length === 0) break;
    after = page.at(-1)!.global_position;
    const arrived = page
      .filter((r) => scope.project === undefined || r.project_id === scope.project)
      .slice(0, copied.events - seen);
    checkChains(heads, arrived, 'target');
    for (const r of arrived) digest.update(`${canonicalJson(r)}\n`);
    seen += arrived.length;
    progress('checking target', seen, copied.events);
  }
  if (seen !== copied.events || digest.digest('hex') !== copied.digest)
    throw new Error(`the target does not hold what was copied (${seen}/${copied.events} events)`);
  const held = await target.contentKeys([...copied.keys.keys()]);
  for (const [subject, key] of copied.keys)
    if (!Buffer.from(key).equals(Buffer.from(held.get(subject) ?? [])))
      throw new Error(`the target's content key for ${subject} is not the source's`);
};

/** What the target must be: empty for the whole log; without the project for one project. */
const assertTargetAccepts = async (target: TransferableLog, project: string | undefined) => {
  const held = await target.head();
  if (project === undefined && held > 0)
    throw new MigrateRefusedError(
      `the target is not empty (${held} events): the whole log is copied only into an empty ` +
        'log (one project, with --project, into a log without it)',
    );
  if (project !== undefined && (await target.readProject(project, { after: 0, limit: 1 })).length)
    throw new MigrateRefusedError(`the target already holds project ${project}`);
};

const migrateBetween = async (
  source: TransferableLog,
  target: TransferableLog,
  options: MigrateOptions,
): Promise<MigrateReport> => {
  const progress: Progress = options.onProgress ?? (() => undefined);
  const scope: Scope = { source, head: await source.head(), project: options.project };
  await assertTargetAccepts(target, options.project);
  const scan = await scanSource(scope, progress);
  if (options.project !== undefined && scan.events === 0)
    throw new MigrateRefusedError(`the source holds no events of project ${options.project}`);
  const start = await target.head();
  let copied: Copied;
  try {
    copied = await copy(scope, target, scan.events, progress);
    await checkTarget(target, start, scope, copied, progress);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; ${describeLocation(options.to)} now holds a partial or ` +
        'unverified copy: remove it before migrating again',
      { cause: error },
    );
  }
  return {
    events: copied.events,
    projects: scan.projects,
    keys: copied.keys.size,
    shredded: scan.subjects.size - copied.keys.size,
    relocated: copied.relocated,
  };
};

const sameLocation = (a: string, b: string): boolean =>
  isPostgresUrl(a) && isPostgresUrl(b)
    ? new URL(a).href === new URL(b).href
    : resolve(a) === resolve(b);

/**
 * `intentlog migrate`: copies the whole log, or one project's events, from one store to another
 * (LevelDB data dir or PostgreSQL), records exactly as stored and the content keys of their
 * sealed subjects (shredded subjects have none, and stay shredded). The source's chains are
 * verified before anything is written, the target's after. Idempotency records and read models
 * are not copied: the target's read models are rebuilt from the copied log.
 */
export const migrateLog = async (options: MigrateOptions): Promise<MigrateReport> => {
  if (sameLocation(options.from, options.to))
    throw new MigrateRefusedError('--from and --to name the same store');
  const source = await openTransferableLog(options.from, options.catalog, { create: false });
  try {
    const target = await openTransferableLog(options.to, options.catalog, { create: true });
    try {
      return await migrateBetween(source, target, options);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
};
