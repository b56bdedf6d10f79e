import { BehaviorSubject, filter, firstValueFrom, timeout, type Subscription } from 'rxjs';
import type { EventLog, LogEvent } from '../events/index.js';
import { modelBatch, modelCache } from './model-batch.js';
import { checkpointKey, modelPrefix, type Checkpoint, type Projector } from './projector.js';

const PAGE = 1000;

export type ProjectionStatus = { name: string; version: number; position: number; head: number };
export type Progress = (done: number, total: number) => void;

export type ProjectionEngine = {
  /** resolves once every read model has folded the log up to `position` (read-your-writes) */
  waitFor(position: number, timeoutMs?: number): Promise<void>;
  rebuild(names?: string[], onProgress?: Progress): Promise<void>;
  status(): Promise<ProjectionStatus[]>;
  stop(): Promise<void>;
};

/**
 * Runs projectors over the log: catch-up from each checkpoint, then live. One loop folds a
 * batch of events through every projector that has not seen them and writes the read-model
 * changes with the new checkpoints in one atomic write. Live events only wake the loop, which
 * always reads the log in order, so catch-up and live can never skip or repeat an event.
 */
export const startProjections = async (
  log: EventLog,
  projectors: readonly Projector[],
): Promise<ProjectionEngine> => {
  const store = log.models;
  const cache = modelCache();
  const checkpoints = new Map<string, Checkpoint>();
  const load = async (p: Projector): Promise<void> => {
    const stored = await store.get<Checkpoint>(checkpointKey(p.name));
    if (stored?.version === p.version) return void checkpoints.set(p.name, stored);
    await reset(p);
  };
  const reset = async (p: Projector): Promise<void> => {
    cache.clear();
    await store.clear(modelPrefix(p.name));
    const fresh = { version: p.version, position: 0 };
    await store.write([{ type: 'put', key: checkpointKey(p.name), value: fresh }]);
    checkpoints.set(p.name, fresh);
  };
  for (const p of projectors) await load(p);

  const minPosition = () =>
    Math.min(...projectors.map((p) => checkpoints.get(p.name)!.position), Number.MAX_SAFE_INTEGER);
  const folded$ = new BehaviorSubject(projectors.length === 0 ? Infinity : minPosition());

  const foldBatch = async (events: LogEvent[]): Promise<void> => {
    const batch = modelBatch(store, cache);
    const last = events.at(-1)!.global_position;
    for (const p of projectors) {
      const at = checkpoints.get(p.name)!;
      if (at.position >= last) continue;
      const tx = batch.txFor(p.name);
      for (const e of events)
        if (e.global_position > at.position && p.handles.includes(e.type)) await p.apply(e, tx);
    }
    const advanced = projectors
      .filter((p) => checkpoints.get(p.name)!.position < last)
      .map((p) => ({ name: p.name, checkpoint: { version: p.version, position: last } }));
    const ops = batch.ops();
    await store.write([
      ...ops,
      ...advanced.map((a) => ({
        type: 'put' as const,
        key: checkpointKey(a.name),
        value: a.checkpoint,
      })),
    ]);
    cache.committed(ops);
    for (const a of advanced) checkpoints.set(a.name, a.checkpoint);
  };

  let running: Promise<void> | undefined;
  let again = false;
  let paused = false;
  let progress: Progress | undefined;
  const read = (after: number): Promise<LogEvent[]> => {
    const page = log.readAll({ after, limit: PAGE });
    page.catch(() => undefined); // a prefetch nobody awaits must not be an unhandled rejection
    return page;
  };
  const drain = async (): Promise<void> => {
    do {
      again = false;
      let next = read(minPosition());
      for (;;) {
        const events = await next;
        if (events.length === 0) break;
        const last = events.at(-1)!.global_position;
        // The log is append-only and every checkpoint reaches `last` with this fold, so the
        // next page can be read while this one folds: catch-up overlaps its I/O with the fold.
        next = read(last);
        await foldBatch(events);
        folded$.next(minPosition());
        progress?.(last, await log.head());
      }
    } while (again);
    running = undefined;
  };
  const wake = (): Promise<void> => {
    again = true;
    if (paused) return Promise.resolve();
    running ??= drain();
    return running;
  };

  const live: Subscription = log.live().subscribe(() => void wake());
  await wake();

  return {
    async waitFor(position, timeoutMs = 10_000) {
      if (folded$.value >= position) return;
      void wake();
      await firstValueFrom(
        folded$.pipe(
          filter((p) => p >= position),
          timeout(timeoutMs),
        ),
      );
    },
    async rebuild(names = [], onProgress) {
      const unknown = names.filter((n) => !projectors.some((p) => p.name === n));
      if (unknown.length > 0) throw new RangeError(`no read model named ${unknown.join(', ')}`);
      paused = true;
      try {
        while (running) await running;
        for (const p of projectors)
          if (names.length === 0 || names.includes(p.name)) await reset(p);
        folded$.next(minPosition());
      } finally {
        paused = false;
      }
      progress = onProgress;
      try {
        await wake();
      } finally {
        progress = undefined;
      }
    },
    async status() {
      const head = await log.head();
      return projectors.map((p) => ({ name: p.name, ...checkpoints.get(p.name)!, head }));
    },
    async stop() {
      live.unsubscribe();
      while (running) await running;
      folded$.complete();
    },
  };
};
