import { BehaviorSubject, filter, firstValueFrom, timeout, type Subscription } from 'rxjs';
import type { EventLog, LogEvent } from '../events/index.js';
import { modelBatch, modelCache, type ModelCache } from './model-batch.js';
import { pageReader, type PageReader } from './page-reader.js';
import { checkpointKey, modelPrefix, type Checkpoint, type Projector } from './projector.js';

export type ProjectionStatus = {
  name: string;
  version: number;
  position: number;
  head: number;
  /** the last error its fold met, until it folds again (a full disk, a broken store) */
  error?: string;
};
export type Progress = (done: number, total: number) => void;

export type WaitOptions = {
  /** the read models to wait for; every one when absent */
  models?: readonly string[];
  timeoutMs?: number;
};

/** A wait for read models that did not reach the position in time. */
export class ProjectionTimeoutError extends Error {
  readonly code = 'projection_timeout';
  constructor(
    readonly position: number,
    readonly behind: readonly { name: string; position: number }[],
  ) {
    super(
      `read models still folding toward position ${position}: ` +
        behind.map((b) => `${b.name} at ${b.position}`).join(', '),
    );
  }
}

export type ProjectionEngine = {
  /** resolves once the read models asked for have folded the log up to `position` */
  waitFor(position: number, options?: WaitOptions): Promise<void>;
  rebuild(names?: string[], onProgress?: Progress): Promise<void>;
  status(): Promise<ProjectionStatus[]>;
  stop(): Promise<void>;
};

export type EngineOptions = {
  /** told about a fold that failed; the lane retries on its own */
  onError?: (error: unknown, projector: string) => void;
  /** run the projectors' effects (the writer's engine); off for replays such as the audit's */
  effects?: boolean;
};

/** A failed fold is tried again after this long, doubling up to the maximum. */
const RETRY_MS = { first: 50, max: 5_000 };

/**
 * One projector's loop: catch-up from its checkpoint, then live. Each batch of events it folds
 * is written with its checkpoint in one atomic write. Live events only wake the loop, which
 * always reads the log in order, so catch-up and live can never skip or repeat an event. Each
 * projector has its own lane, so a slow or rebuilding read model holds up only the queries that
 * read it; lanes at the same position share their page reads (page-reader.ts).
 */
const lane = (
  log: EventLog,
  p: Projector,
  pages: PageReader,
  cache: ModelCache,
  options: EngineOptions,
) => {
  const store = log.models;
  let checkpoint: Checkpoint = { version: p.version, position: 0 };
  const folded$ = new BehaviorSubject(0);
  let running: Promise<void> | undefined;
  let again = false;
  let paused = false;
  let stopped = false;
  let failures = 0;
  let lastError: string | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let progress: Progress | undefined;

  const advance = (to: Checkpoint) => {
    checkpoint = to;
    folded$.next(to.position);
  };
  const load = async (): Promise<void> => {
    const stored = await store.get<Checkpoint>(checkpointKey(p.name));
    if (stored?.version === p.version) advance(stored);
    else await reset();
  };
  const reset = async (): Promise<void> => {
    cache.clear();
    await store.clear(modelPrefix(p.name));
    const fresh = { version: p.version, position: 0 };
    await store.write([{ type: 'put', key: checkpointKey(p.name), value: fresh }]);
    advance(fresh);
  };

  const foldBatch = async (events: LogEvent[]): Promise<void> => {
    const batch = modelBatch(store, cache);
    const tx = batch.txFor(p.name);
    for (const e of events)
      if (e.global_position > checkpoint.position && p.handles.includes(e.type))
        await p.apply(e, tx);
    const next = { version: p.version, position: events.at(-1)!.global_position };
    const ops = batch.ops();
    await store.write([...ops, { type: 'put', key: checkpointKey(p.name), value: next }]);
    cache.committed(ops);
    if (options.effects && p.effect && ops.length > 0) {
      const prefix = modelPrefix(p.name);
      const keys = ops.map((op) => op.key.slice(prefix.length));
      await p.effect(keys, store).catch((error: unknown) => options.onError?.(error, p.name));
    }
    advance(next);
  };

  const drain = async (): Promise<void> => {
    do {
      again = false;
      let next = pages.after(checkpoint.position);
      for (;;) {
        const events = await next;
        if (events.length === 0) break;
        // The log is append-only and this fold reaches the page's end, so the next page can be
        // read while this one folds: catch-up overlaps its I/O with the fold.
        next = pages.after(events.at(-1)!.global_position);
        await foldBatch(events);
        progress?.(checkpoint.position, await log.head());
      }
    } while (again && !paused && !stopped);
  };

  /** A failed fold (a full disk, a store error) is logged and tried again, never dropped. */
  const failed = (error: unknown): void => {
    lastError = error instanceof Error ? error.message : String(error);
    options.onError?.(error, p.name);
    const delay = Math.min(RETRY_MS.first * 2 ** failures++, RETRY_MS.max);
    retry = setTimeout(() => {
      retry = undefined;
      void wake();
    }, delay);
    retry.unref();
  };

  const wake = (): Promise<void> => {
    again = true;
    if (paused || stopped || retry) return running ?? Promise.resolve();
    running ??= drain().then(
      () => {
        failures = 0;
        lastError = undefined;
        running = undefined;
      },
      (error: unknown) => {
        running = undefined;
        failed(error);
      },
    );
    return running;
  };

  const settle = async (): Promise<void> => {
    while (running) await running;
  };

  return {
    name: p.name,
    load,
    wake,
    folded$,
    position: () => checkpoint.position,
    status: () => ({ name: p.name, ...checkpoint, ...(lastError ? { error: lastError } : {}) }),
    async rebuild(onProgress?: Progress) {
      paused = true;
      try {
        await settle();
        await reset();
      } finally {
        paused = false;
      }
      progress = onProgress;
      try {
        await wake();
        await settle();
      } finally {
        progress = undefined;
      }
      if (lastError) throw new Error(`rebuilding ${p.name} failed: ${lastError}`);
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await settle();
      folded$.complete();
    },
  };
};

/**
 * Runs projectors over the log, one lane each (see `lane`). Bumping a projector's version
 * resets its keyspace and rebuilds it from the log on start.
 */
export const startProjections = async (
  log: EventLog,
  projectors: readonly Projector[],
  options: EngineOptions = {},
): Promise<ProjectionEngine> => {
  const pages = pageReader(log);
  const cache = modelCache();
  const lanes = projectors.map((p) => lane(log, p, pages, cache, options));
  const byName = new Map(lanes.map((l) => [l.name, l]));
  const pick = (names: readonly string[] | undefined) => {
    if (!names || names.length === 0) return lanes;
    const unknown = names.filter((n) => !byName.has(n));
    if (unknown.length > 0) throw new RangeError(`no read model named ${unknown.join(', ')}`);
    return names.map((n) => byName.get(n)!);
  };
  for (const l of lanes) await l.load();

  const wakeAll = () => Promise.all(lanes.map((l) => l.wake()));
  const live: Subscription = log.live().subscribe(() => void wakeAll());
  await wakeAll();

  const waitFor = async (position: number, wait: WaitOptions = {}): Promise<void> => {
    const asked = pick(wait.models);
    const behind = asked.filter((l) => l.position() < position);
    if (behind.length === 0) return;
    const timeoutMs = wait.timeoutMs ?? 10_000;
    try {
      await Promise.all(
        behind.map((l) => {
          void l.wake();
          return firstValueFrom(
            l.folded$.pipe(
              filter((p) => p >= position),
              timeout(timeoutMs),
            ),
          );
        }),
      );
    } catch {
      const late = asked.filter((l) => l.position() < position);
      throw new ProjectionTimeoutError(
        position,
        late.map((l) => ({ name: l.name, position: l.position() })),
      );
    }
  };

  return {
    waitFor,
    async rebuild(names = [], onProgress) {
      await Promise.all(pick(names).map((l) => l.rebuild(onProgress)));
    },
    async status() {
      const head = await log.head();
      return lanes.map((l) => ({ ...l.status(), head }));
    },
    async stop() {
      live.unsubscribe();
      await Promise.all(lanes.map((l) => l.stop()));
    },
  };
};
