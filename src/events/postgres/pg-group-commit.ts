import type pg from 'pg';
import type { Catalog } from '../catalog/catalog.js';
import type { LogEvent } from '../envelope.js';
import {
  IdempotencyReplayError,
  type IdempotencyRecord,
  type MultiAppendOptions,
  type MultiAppendResult,
  type StreamAppend,
} from '../event-log.js';
import { StoredReplay, type StoredIdempotency } from '../idempotency-store.js';
import { toLogEvent } from '../record-view.js';
import { loadForGroup, lockHead } from './pg-load.js';
import {
  assertStorableText,
  newStaged,
  stageAppend,
  type Loaded,
  type PendingAppend,
  type Staged,
} from './pg-stage.js';
import { writeGroup } from './pg-write.js';

type Pending = PendingAppend & {
  resolve: (result: MultiAppendResult) => void;
  reject: (error: unknown) => void;
};

/** Appends per transaction at most: bounds how long one group holds the head lock. */
const MAX_GROUP = 500;

/** An error PostgreSQL reported (it has a SQLSTATE): the transaction certainly rolled back. */
const isServerError = (error: unknown): boolean =>
  typeof (error as { code?: unknown })?.code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

/**
 * Group commit on PostgreSQL. Appends queue while a transaction is in flight; the next
 * transaction takes all of them. It first locks the log's head row, so appends of every
 * instance on the database commit one transaction at a time, in position order: global
 * positions and project cursors are gapless, and a reader can never see position N+1 before N
 * (the head lock is released only after the commit is visible). Each append is staged and
 * settled on its own: a conflict fails one caller, not its group.
 */
export const pgGroupCommitter = (deps: {
  pool: pg.Pool;
  schema: string;
  channel: string;
  catalog: Catalog;
  /** committed events of this instance, in position order, after their appends settle */
  committed: (events: LogEvent[]) => void;
  /** opens a stored idempotency record (its sealed response) for a caller it replays to */
  openIdempotency: (stored: StoredIdempotency) => Promise<IdempotencyRecord>;
}) => {
  const { pool, catalog } = deps;
  const s = `"${deps.schema}"`;
  const queue: Pending[] = [];
  let flushing: Promise<void> | undefined;

  const stageAll = (group: Pending[], loaded: Loaded) => {
    const staged = newStaged(loaded);
    return { staged, outcomes: group.map((p) => settleLater(p, staged)) };
  };

  // Heads are read and the group planned before the head lock; if the head row is unchanged
  // when the lock is granted, nothing the plan read has changed (every append and every shred
  // changes it), so the lock is held only for the write and the commit. Else read and plan again.
  const transact = async (group: Pending[]) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const guess = await loadForGroup(client, s, group);
      let planned = stageAll(group, guess);
      if ((await lockHead(client, s)) !== guess.head)
        planned = stageAll(group, await loadForGroup(client, s, group));
      const { staged } = planned;
      if (staged.records.length + staged.newIdempotency.size + staged.newAppends.size > 0)
        await writeGroup(client, s, deps.channel, staged);
      await client.query('COMMIT');
      return planned;
    } catch (error) {
      broken = isServerError(error) ? undefined : (error as Error);
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  };

  const settleLater = (p: Pending, staged: Staged) => {
    try {
      return { ok: true as const, result: stageAppend(p, staged, catalog) };
    } catch (error) {
      return { ok: false as const, error };
    }
  };

  const storable = (p: Pending): boolean => {
    try {
      assertStorableText(p);
      return true;
    } catch (error) {
      p.reject(error);
      return false;
    }
  };

  const commit = async (all: Pending[]): Promise<void> => {
    const group = all.filter(storable);
    if (group.length === 0) return;
    let done: Awaited<ReturnType<typeof transact>>;
    try {
      done = await transact(group);
    } catch (error) {
      // One append the database refused (rather than a lost connection) must not fail the
      // appends it happened to share a transaction with: give each its own.
      if (group.length > 1 && isServerError(error)) {
        for (const p of group) await commit([p]);
      } else for (const p of group) p.reject(error);
      return;
    }
    const { staged, outcomes } = done;
    group.forEach((p, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) p.resolve(outcome.result);
      else if (outcome.error instanceof StoredReplay)
        deps
          .openIdempotency(outcome.error.stored)
          .then((record) => p.reject(new IdempotencyReplayError(record)), p.reject);
      else p.reject(outcome.error);
    });
    if (staged.records.length > 0)
      deps.committed(
        staged.records.map((r) => toLogEvent(r, catalog, (subject) => staged.keys.get(subject))),
      );
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0) await commit(queue.splice(0, MAX_GROUP));
    flushing = undefined;
  };

  return {
    append: (appends: readonly StreamAppend[], options: MultiAppendOptions) =>
      new Promise<MultiAppendResult>((resolve, reject) => {
        queue.push({ appends, options, resolve, reject });
        flushing ??= flush();
      }),
    drain: async (): Promise<void> => {
      while (flushing) await flushing;
    },
  };
};
