import type { IntentEvent } from '../../commands/intent/task-state.js';
import { intentRef } from '../../events/intent/index.js';
import type { EventLog } from '../../events/index.js';
import type { intentSnapshotQueries } from '../../projections/intent/snapshot.js';
import { SnapshotIndex } from '../../projections/intent/snapshot-index.js';

type Queries = ReturnType<typeof intentSnapshotQueries>;

/** How many tasks' copies a process keeps; the one read least recently goes first. */
const TASKS_KEPT = 64;
/** A copy further behind than this many events of its task reads the task's claims whole. */
const EVENTS_BEHIND_MAX = 256;

/** A task's claims as of its stream `version`, sorted out, with each claim's id by its ref. */
type Copy = { version: number; index: SnapshotIndex; idByRef: Map<string, string> };

/** The refs of the claims an event of the task changes (none for a shredded one). */
const touched = (e: IntentEvent): string[] => {
  if (Object.keys(e.data).length === 0) return [];
  switch (e.type) {
    case 'intent.claim_added':
      return [e.data.claim.claim_id, ...e.data.claim.supersedes].map(intentRef);
    case 'intent.claim_invalidated':
    case 'intent.claim_promoted':
      return [intentRef(e.data.claim_id)];
    case 'intent.claim_deleted':
      return [e.data.claim_ref];
    default:
      return [];
  }
};

/**
 * Copies of tasks' claims, sorted out for snapshots (issue 39). A copy is brought up to the
 * version of the task's head in the read model by reading the task's events since from the log
 * and then only the claims they change from the read model (a deleted one reads as gone, so a
 * delete reaches the copy at its next read; a shredded event changes nothing and its tombstone
 * follows it). A copy too far behind, or none, reads the task's claims whole. Catch-ups of one
 * task run one after another: two readers applying values of different ages in turn could
 * leave a copy older than the version it claims.
 */
export const taskCopies = (log: EventLog, queries: Queries) => {
  const copies = new Map<string, Promise<Copy | undefined>>();
  const keyOf = (p: string, t: string) => `${p}\0${t}`;

  const whole = async (p: string, t: string, version: number): Promise<Copy> => {
    const rows = await queries.claimRows(p, t);
    const idByRef = new Map(rows.map(([ref, view]) => [ref, view.body.claim_id]));
    return { version, index: SnapshotIndex.of(rows.map(([, view]) => view)), idByRef };
  };

  const caughtUp = async (at: Where, copy: Copy): Promise<Copy | undefined> => {
    // a copy at or past the head read is as new as the reader needs
    if (copy.version >= at.version) return copy;
    if (at.version - copy.version > EVENTS_BEHIND_MAX) return undefined;
    const { events } = await log.readStream<IntentEvent>(at.stream, {
      from: BigInt(copy.version + 1),
      to: BigInt(at.version),
    });
    const refs = [...new Set(events.flatMap(touched))];
    const views = await queries.claimsByRef(at.p, at.t, refs);
    refs.forEach((ref, i) => {
      const view = views[i];
      const id = view?.body.claim_id ?? copy.idByRef.get(ref);
      if (id === undefined) return;
      copy.index.set(id, view);
      if (view) copy.idByRef.set(ref, id);
      else copy.idByRef.delete(ref);
    });
    copy.version = at.version;
    return copy;
  };

  /**
   * The task's claims sorted out, as of at least `version` of its stream: the version of its
   * head in the read model, which has folded every event up to it.
   */
  const of = async (at: Where): Promise<SnapshotIndex> => {
    const key = keyOf(at.p, at.t);
    const before = copies.get(key) ?? Promise.resolve(undefined);
    const next = before
      .catch(() => undefined)
      .then(async (held) => (held && (await caughtUp(at, held))) ?? whole(at.p, at.t, at.version));
    // read last, so kept last: the map's first entry is the one read least recently
    copies.delete(key);
    copies.set(key, next);
    if (copies.size > TASKS_KEPT) copies.delete(copies.keys().next().value!);
    return (await next).index;
  };

  /** A deleted task's copy goes at once: its claims' content stays in no cache. */
  const forget = (p: string, t: string): void => {
    copies.delete(keyOf(p, t));
  };

  return { of, forget };
};

/** A task as a reader found it: project, task id, its stream, its head's stream version. */
export type Where = { p: string; t: string; stream: string; version: number };
