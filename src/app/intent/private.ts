import type { IntentEvent } from '../../commands/intent/task-state.js';
import type { ClaimBody } from '../../events/intent/index.js';
import { mayReach } from '../../commands/intent/task-access.js';
import type { Principal } from '../../commands/principal.js';

/**
 * Private mode's store: the semantic events of private tasks, in this process's memory only.
 * The log holds only the hashed control marker; a restart finds the marker and no memory, and
 * the task fails closed until its mode is set again. One promise chain per task serialises the
 * private writes of this process. A task's private content is its owner's as the task is:
 * every read and write of it checks the caller against the owner the log records.
 */
export type PrivateTask = {
  marker_hash: string;
  /** the task's owner (its start event's actor), for counts scoped to a caller */
  owner: string;
  events: IntentEvent[];
  /** idempotency scope (project, caller, request_id) → fingerprint and answer */
  requests: Map<string, { fingerprint: string; response: unknown }>;
};

/** A claim's body with nothing of what it said: no statement, excerpt or decision. */
const blanked = (claim: ClaimBody): ClaimBody => ({
  ...claim,
  statement: '',
  affects_decision: null,
  source_ref: { ...claim.source_ref, excerpt: null },
});

export const privateStore = () => {
  const tasks = new Map<string, PrivateTask>();
  const chains = new Map<string, Promise<unknown>>();
  return {
    get: (stream: string): PrivateTask | undefined => tasks.get(stream),
    open(stream: string, marker_hash: string, owner: string): void {
      const current = tasks.get(stream);
      if (current?.marker_hash === marker_hash) return;
      tasks.set(stream, { marker_hash, owner, events: [], requests: new Map() });
    },
    /**
     * Deletes a claim held only here: its text goes from memory (its event keeps only what the
     * fold needs for the claims it superseded), and a tombstone takes it out of the task, as
     * the log's would. Nothing is written anywhere.
     */
    forget(stream: string, claimId: string, tombstone: IntentEvent): void {
      const task = tasks.get(stream);
      if (!task) return;
      task.events = task.events.map((e) =>
        e.type === 'intent.claim_added' && e.data.claim?.claim_id === claimId
          ? { ...e, data: { ...e.data, claim: blanked(e.data.claim) } }
          : e,
      );
      task.events.push(tombstone);
    },
    /** Leaving private mode forgets the content: it was never meant to outlive the session. */
    drop: (stream: string): boolean => tasks.delete(stream),
    serially<R>(stream: string, work: () => Promise<R>): Promise<R> {
      const run = (chains.get(stream) ?? Promise.resolve()).then(work, work);
      chains.set(
        stream,
        run.catch(() => undefined),
      );
      return run;
    },
    /**
     * Counts for intent_status: how many private tasks of the caller's this process holds,
     * never content.
     */
    counts(by: Principal) {
      const own = [...tasks.values()].filter((t) => mayReach(t.owner, by));
      return {
        tasks: own.length,
        // a claim forgotten (deleted) in memory leaves its tombstone: it counts no more
        claims: own.reduce(
          (n, t) =>
            n +
            t.events.filter((e) => e.type === 'intent.claim_added').length -
            t.events.filter((e) => e.type === 'intent.claim_deleted').length,
          0,
        ),
      };
    },
  };
};

export type PrivateStore = ReturnType<typeof privateStore>;
