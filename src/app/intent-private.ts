import type { IntentEvent } from '../commands/intent/task-state.js';

/**
 * Private mode's store: the semantic events of private tasks, in this process's memory only.
 * The log holds only the hashed control marker; a restart finds the marker and no memory, and
 * the task fails closed until its mode is set again. One promise chain per task serialises the
 * private writes of this process.
 */
export type PrivateTask = {
  marker_hash: string;
  events: IntentEvent[];
  /** request_id → fingerprint and answer, for private writes */
  requests: Map<string, { fingerprint: string; response: unknown }>;
};

export const privateStore = () => {
  const tasks = new Map<string, PrivateTask>();
  const chains = new Map<string, Promise<unknown>>();
  return {
    get: (stream: string): PrivateTask | undefined => tasks.get(stream),
    open(stream: string, marker_hash: string): void {
      const current = tasks.get(stream);
      if (current?.marker_hash === marker_hash) return;
      tasks.set(stream, { marker_hash, events: [], requests: new Map() });
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
    /** Counts for intent_status: how many private tasks this process holds, never content. */
    counts: () => ({
      tasks: tasks.size,
      claims: [...tasks.values()].reduce(
        (n, t) => n + t.events.filter((e) => e.type === 'intent.claim_added').length,
        0,
      ),
    }),
  };
};

export type PrivateStore = ReturnType<typeof privateStore>;
