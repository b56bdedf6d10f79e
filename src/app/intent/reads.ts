import { intentError, taskNotFound } from '../../commands/intent/errors.js';
import { checkReach, mayReach } from '../../commands/intent/task-access.js';
import type { TaskState } from '../../commands/intent/task-state.js';
import type { Principal } from '../../commands/principal.js';
import type { EventLog } from '../../events/index.js';
import {
  intentSnapshotQueries,
  type CandidateView,
  type DirectStatement,
} from '../../projections/intent/snapshot.js';
import {
  prepareClaims,
  SNAPSHOT_CAPS,
  snapshotOf,
  withoutDangling,
  type ClaimView,
  type PreparedClaims,
  type Snapshot,
  type TaskHead,
} from '../../projections/intent/snapshot-view.js';
import type { PrivateStore } from './private.js';
import { loadTask, offStatus, taskStreamOf, type OffStatus } from './writes.js';

/** Who reads, in which project: a task reaches its owner and SYSTEM only. */
export type Reader = { project_id: string; principal: Principal };

export type TaskView = {
  head: TaskHead;
  claims: ClaimView[];
  candidates: CandidateView[];
  /** the claims sorted out for a snapshot; made on first use, kept with the cached claims */
  prepared: () => PreparedClaims;
};

/** Computes once, on first call. */
const lazy = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

/** A private task's view, from the state this process folded (the log's part has no content). */
const memoryView = (state: TaskState): TaskView => {
  const claims = withoutDangling(
    [...state.claims.values()].map(({ body, life, superseded_by, promoted, ordinal }) => ({
      body,
      life,
      superseded_by,
      promoted,
      seq: ordinal,
    })),
  );
  return {
    head: {
      project_id: state.project_id,
      task_id: state.task_id,
      mode: state.mode,
      deleted: state.deleted,
      started_at: state.started_at,
      candidate_count: state.candidates.size,
      imports: state.imports,
    },
    claims,
    candidates: [...state.candidates.values()].map((c) => ({ ...c, event_id: null })),
    prepared: lazy(() => prepareClaims(claims)),
  };
};

/**
 * The intent surface's reads. A private task is read from this process's memory; every other
 * task from the snapshot read model once it has folded everything committed before the read.
 * A task's claims are cached by the log position its head last moved at, with their sorted-out
 * form, so a repeated snapshot of a large task neither decodes nor sorts every claim again.
 */
export const intentReads = (
  log: EventLog,
  waitFor: (position: number) => Promise<void>,
  store: PrivateStore,
) => {
  const queries = intentSnapshotQueries(log.models);
  type Cached = { position: number; claims: ClaimView[]; prepared: () => PreparedClaims };
  const cache = new Map<string, Cached>();

  const claimsOf = async (p: string, t: string, position: number): Promise<Cached> => {
    const key = `${p}\0${t}`;
    const hit = cache.get(key);
    if (hit?.position === position) return hit;
    const claims = withoutDangling(await queries.claims(p, t));
    if (cache.size > 64) cache.clear();
    const entry = { position, claims, prepared: lazy(() => prepareClaims(claims)) };
    cache.set(key, entry);
    return entry;
  };

  /**
   * A task as the reader may see it. Another's task answers exactly as a missing one, before
   * anything of it (deleted, off, private) shows.
   */
  const view = async (by: Reader, t: string): Promise<TaskView | OffStatus> => {
    const p = by.project_id;
    const stream = await taskStreamOf(log, p, t);
    if (store.get(stream)) {
      const state = await loadTask(log, stream, store);
      checkReach(state, by.principal);
      if (state.mode === 'private') return memoryView(state);
      store.drop(stream);
    }
    await waitFor(await log.head());
    const head = await queries.head(p, t);
    if (!head || !mayReach(head.owner, by.principal)) throw taskNotFound();
    if (head.deleted) throw intentError('TASK_DELETED', 'the task was deleted', { task_id: t });
    if (head.mode === 'off') return offStatus();
    if (head.mode === 'private')
      throw intentError(
        'PRIVATE_STATE_UNAVAILABLE',
        'the task is private and this process holds none of its private state; set the mode ' +
          'to on or off to continue',
      );
    const [{ claims, prepared }, candidates] = await Promise.all([
      claimsOf(p, t, head.last_position),
      queries.candidates(p, t),
    ]);
    return { head, claims, candidates, prepared };
  };

  /**
   * A task's active direct user statements, with no other claim read: what a SessionStart Hook
   * injects (the head counts the rest). For a task whose mode is on; else undefined.
   */
  const direct = async (p: string, t: string): Promise<DirectStatement[] | undefined> => {
    await waitFor(await log.head());
    const head = await queries.head(p, t);
    if (!head || head.deleted || head.mode !== 'on') return undefined;
    return queries.direct(p, t);
  };

  /** `maxChars`: a caller's tighter character budget (intent-loop's `max_characters`). */
  const snapshot = async (
    by: Reader,
    t: string,
    now: string,
    maxChars?: number,
  ): Promise<Snapshot | OffStatus> => {
    const v = await view(by, t);
    if (!('head' in v)) return v;
    const caps =
      maxChars === undefined
        ? SNAPSHOT_CAPS
        : { ...SNAPSHOT_CAPS, chars: Math.min(maxChars, SNAPSHOT_CAPS.chars) };
    return snapshotOf(v.head, v.prepared(), now, caps);
  };

  /** The heads of the project's tasks the reader may reach (SYSTEM: every one). */
  const tasks = async (by: Reader) =>
    (await queries.tasks(by.project_id)).filter((h) => mayReach(h.owner, by.principal));

  return { view, direct, snapshot, tasks };
};

export type IntentReads = ReturnType<typeof intentReads>;
