import { intentError, taskNotFound } from '../../commands/intent/errors.js';
import { checkReach, mayReach } from '../../commands/intent/task-access.js';
import type { TaskState } from '../../commands/intent/task-state.js';
import type { Principal } from '../../commands/principal.js';
import type { EventLog } from '../../events/index.js';
import {
  intentSnapshotQueries,
  type CandidateView,
  type IntentTaskHead,
  type DirectStatement,
} from '../../projections/intent/snapshot.js';
import { SnapshotIndex } from '../../projections/intent/snapshot-index.js';
import {
  SNAPSHOT_CAPS,
  snapshotOf,
  withoutDangling,
  type ClaimView,
  type Snapshot,
  type TaskHead,
} from '../../projections/intent/snapshot-view.js';
import { taskCopies, type Where } from './task-copies.js';
import type { PrivateStore } from './private.js';
import { loadTask, offStatus, taskStreamOf, type OffStatus } from './writes.js';

/** Who reads, in which project: a task reaches its owner and SYSTEM only. */
export type Reader = { project_id: string; principal: Principal };

export type TaskView = {
  head: TaskHead;
  /** every claim held, in the order they were added (sorted out on first read) */
  readonly claims: ClaimView[];
  candidates: CandidateView[];
  /** the claims sorted out for a snapshot */
  index: SnapshotIndex;
};

/** Where a task the reader may see is read from: this process's memory, or the read model. */
type Reached =
  { from: 'memory'; view: TaskView } | { from: 'model'; head: IntentTaskHead; where: Where };

/** A view whose claims list is made from the index on first read: a snapshot needs none. */
const viewOf = (head: TaskHead, index: SnapshotIndex, candidates: CandidateView[]): TaskView => {
  let claims: ClaimView[] | undefined;
  return {
    head,
    get claims() {
      return (claims ??= withoutDangling([...index.claims.values()].sort((a, b) => a.seq - b.seq)));
    },
    candidates,
    index,
  };
};

/** A private task's view, from the state this process folded (the log's part has no content). */
const memoryView = (state: TaskState): TaskView => {
  const claims = [...state.claims.values()].map(
    ({ body, life, superseded_by, promoted, ordinal }): ClaimView => ({
      body,
      life,
      superseded_by,
      promoted,
      seq: ordinal,
    }),
  );
  const head = {
    project_id: state.project_id,
    task_id: state.task_id,
    mode: state.mode,
    deleted: state.deleted,
    started_at: state.started_at,
    candidate_count: state.candidates.size,
    imports: state.imports,
  };
  const candidates = [...state.candidates.values()].map((c) => ({ ...c, event_id: null }));
  return viewOf(head, SnapshotIndex.of(claims), candidates);
};

/**
 * The intent surface's reads. A private task is read from this process's memory; every other
 * task from the snapshot read model once it has folded everything committed before the read.
 * A task's claims are kept sorted out for its snapshot (task-copies.ts) and brought up to date
 * from the claims changed since, so a snapshot of a large task neither decodes nor sorts every
 * claim again when one of them changes.
 */
export const intentReads = (
  log: EventLog,
  waitFor: (position: number) => Promise<void>,
  store: PrivateStore,
) => {
  const queries = intentSnapshotQueries(log.models);
  const copies = taskCopies(log, queries);

  /**
   * Where a task is read from, once the reader may see it: this process's memory (a private
   * task) or the read model's head. Another's task answers exactly as a missing one, before
   * anything of it (deleted, off, private) shows.
   */
  const reach = async (by: Reader, t: string): Promise<Reached | OffStatus> => {
    const p = by.project_id;
    const stream = await taskStreamOf(log, p, t);
    if (store.get(stream)) {
      const state = await loadTask(log, stream, store);
      checkReach(state, by.principal);
      if (state.mode === 'private') return { from: 'memory', view: memoryView(state) };
      store.drop(stream);
    }
    await waitFor(await log.head());
    const head = await queries.head(p, t);
    if (!head || !mayReach(head.owner, by.principal)) throw taskNotFound();
    if (head.deleted) {
      copies.forget(p, t);
      throw intentError('TASK_DELETED', 'the task was deleted', { task_id: t });
    }
    if (head.mode === 'off') return offStatus();
    if (head.mode === 'private')
      throw intentError(
        'PRIVATE_STATE_UNAVAILABLE',
        'the task is private and this process holds none of its private state; set the mode ' +
          'to on or off to continue',
      );
    return { from: 'model', head, where: { p, t, stream, version: head.version } };
  };

  /** A task as the reader may see it: its head, claims and candidates. */
  const view = async (by: Reader, t: string): Promise<TaskView | OffStatus> => {
    const at = await reach(by, t);
    if (!('from' in at)) return at;
    if (at.from === 'memory') return at.view;
    const [index, candidates] = await Promise.all([
      copies.of(at.where),
      queries.candidates(by.project_id, t),
    ]);
    return viewOf(at.head, index, candidates);
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
    const at = await reach(by, t);
    if (!('from' in at)) return at;
    const { head, index } =
      at.from === 'memory' ? at.view : { head: at.head, index: await copies.of(at.where) };
    const caps =
      maxChars === undefined
        ? SNAPSHOT_CAPS
        : { ...SNAPSHOT_CAPS, chars: Math.min(maxChars, SNAPSHOT_CAPS.chars) };
    return snapshotOf(head, index, now, caps);
  };

  /** The heads of the project's tasks the reader may reach (SYSTEM: every one). */
  const tasks = async (by: Reader) =>
    (await queries.tasks(by.project_id)).filter((h) => mayReach(h.owner, by.principal));

  return { view, direct, snapshot, tasks };
};

export type IntentReads = ReturnType<typeof intentReads>;
