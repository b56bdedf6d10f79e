import { performance } from 'node:perf_hooks';
import type { Subscription } from 'rxjs';
import { filter, firstValueFrom, timeout } from '../events/rx.js';
import type { EventLog } from '../events/index.js';
import { pageWriter, type FoldedPage } from './cohort-page.js';
import { loadLane, newLane, resetLane, type Lane } from './lane.js';
import { modelCache } from './model-batch.js';
import { PAGE, pageReader } from './page-reader.js';
import type { Projector } from './projector.js';
import {
  ProjectionTimeoutError,
  type EngineOptions,
  type ProjectionEngine,
  type Progress,
  type WaitOptions,
} from './engine-types.js';

/** A failed fold is tried again after this long, doubling up to the maximum. */
const RETRY_MS = { first: 50, max: 5_000 };
/** A lane found slow on a page goes on alone this long (ms) before it may merge back. */
const SOLO_MS = 10_000;

/**
 * Lanes at (about) one position, folded together: each page of the log is read once, handed to
 * every lane, and what they all wrote is committed with their checkpoints in one atomic write.
 * A lane that is far behind (rebuilding), failing or slow is in a cohort of its own, and is
 * merged back once it is idle within a page of another.
 */
type Cohort = {
  lanes: Lane[];
  running?: Promise<void>;
  again: boolean;
  /** a rebuild is taking lanes out: it neither folds further nor merges */
  paused: boolean;
  retry?: ReturnType<typeof setTimeout>;
  failures: number;
  progress?: Progress;
};

const lowest = (lanes: readonly Lane[]) => Math.min(...lanes.map((l) => l.checkpoint.position));
const highest = (lanes: readonly Lane[]) => Math.max(...lanes.map((l) => l.checkpoint.position));

/**
 * Runs projectors over the log. Catch-up and live are one loop that always reads the log in
 * order, so neither can skip or repeat an event; live events only wake it. Each read model
 * has its own checkpoint and its own waiters: a query waits only for the models it reads, and
 * one that is slow, failing or rebuilding holds up only itself (see `Cohort`). Bumping a
 * projector's version resets its keyspace and rebuilds it from the log on start.
 */
export const startProjections = async (
  log: EventLog,
  projectors: readonly Projector[],
  options: EngineOptions = {},
): Promise<ProjectionEngine> => {
  const store = log.models;
  const pages = pageReader(log);
  const cache = modelCache();
  const writer = pageWriter({
    store,
    cache,
    effects: options.effects ?? false,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const lanes = projectors.map(newLane);
  const byName = new Map(lanes.map((l) => [l.projector.name, l]));
  const cohorts = new Set<Cohort>();
  const cohortOf = new Map<Lane, Cohort>();
  let stopped = false;

  const pick = (names: readonly string[] | undefined) => {
    if (!names || names.length === 0) return lanes;
    const unknown = names.filter((n) => !byName.has(n));
    if (unknown.length > 0) throw new RangeError(`no read model named ${unknown.join(', ')}`);
    return names.map((n) => byName.get(n)!);
  };
  const cohort = (members: Lane[], progress?: Progress): Cohort => {
    const c: Cohort = { lanes: members, again: false, paused: false, failures: 0 };
    if (progress) c.progress = progress;
    cohorts.add(c);
    for (const l of members) cohortOf.set(l, c);
    return c;
  };
  /** Neither paused, waiting to retry, nor holding a lane that was split off for being slow. */
  const settled = (c: Cohort) =>
    !c.paused && !c.retry && c.lanes.every((l) => l.soloUntil <= performance.now());

  /**
   * Takes in the idle cohorts whose lanes all stand within [from, to]. A rebuild (`progress`)
   * may take others in near its end; it is never taken in, so it reports to its end.
   */
  const absorb = (c: Cohort, from: number, to: number): void => {
    if (!settled(c)) return;
    for (const other of cohorts) {
      const idle = !other.running && !other.progress && settled(other);
      if (other === c || !idle || other.lanes.length === 0) continue;
      if (lowest(other.lanes) < from || highest(other.lanes) > to) continue;
      c.lanes.push(...other.lanes);
      for (const l of other.lanes) cohortOf.set(l, c);
      cohorts.delete(other);
    }
  };

  /** Moves lanes out of `c` into a cohort of their own. */
  const split = (c: Cohort, out: readonly Lane[]): Cohort => {
    c.lanes = c.lanes.filter((l) => !out.includes(l));
    return cohort([...out]);
  };

  /** Failing and slow lanes go on in cohorts of their own. */
  const leave = (c: Cohort, page: FoldedPage): void => {
    for (const { lane, error } of page.failed) {
      lane.error = error instanceof Error ? error.message : String(error);
      options.onError?.(error, lane.projector.name);
      failedCohort(split(c, [lane]));
    }
    for (const lane of page.slow) {
      lane.soloUntil = performance.now() + SOLO_MS;
      void wake(split(c, [lane]));
    }
  };

  /**
   * Reads and folds the log from the cohort's lowest lane on. Page n+1 is folded while page n is
   * written (its writes are staged in the cache, so the fold reads them); writes go one at a
   * time, in log order, so a checkpoint never lands before the page it follows.
   */
  const drain = async (c: Cohort): Promise<void> => {
    // a lane that left another cohort may still have its last page being written
    await Promise.all(c.lanes.map((l) => l.committing));
    let writing: Promise<void> = Promise.resolve();
    try {
      do {
        c.again = false;
        if (c.lanes.length === 0) return;
        const from = lowest(c.lanes);
        absorb(c, from - PAGE, highest(c.lanes) + PAGE);
        let next = pages.after(lowest(c.lanes));
        for (;;) {
          const events = await next;
          if (events.length === 0) break;
          const end = events.at(-1)!.global_position;
          // The log is append-only and this fold reaches the page's end, so the next page can
          // be read while this one folds: catch-up overlaps its I/O with the fold.
          next = pages.after(end);
          const page = await writer.fold(c.lanes, events, !c.progress);
          await writing;
          writing = writer.commit(page);
          leave(c, page);
          if (c.lanes.length === 0) break;
          // only lanes at or past this page's end: one behind it would miss the page
          absorb(c, end, end + PAGE);
          c.progress?.(end, await log.head());
        }
        await writing;
      } while (c.again && !c.paused && !stopped);
    } catch (error) {
      // no retry may start while a write it would repeat is still in flight
      await writing.catch(() => undefined);
      throw error;
    }
  };

  /** A failed fold or write (a full disk, a store error) is logged and tried again, never dropped. */
  const failedCohort = (c: Cohort): void => {
    const delay = Math.min(RETRY_MS.first * 2 ** c.failures++, RETRY_MS.max);
    c.retry = setTimeout(() => {
      delete c.retry;
      void wake(c);
    }, delay);
    c.retry.unref();
  };

  const wake = (c: Cohort): Promise<void> => {
    c.again = true;
    if (c.paused || stopped || c.retry || !cohorts.has(c)) return c.running ?? Promise.resolve();
    c.running ??= drain(c).then(
      () => {
        c.failures = 0;
        delete c.running;
        if (c.lanes.length === 0) cohorts.delete(c);
      },
      (error: unknown) => {
        delete c.running;
        const message = error instanceof Error ? error.message : String(error);
        for (const l of c.lanes) {
          l.error = message;
          options.onError?.(error, l.projector.name);
        }
        failedCohort(c);
      },
    );
    return c.running;
  };
  const wakeAll = () => Promise.all([...cohorts].map(wake));
  const settle = async (c: Cohort): Promise<void> => {
    while (c.running) await c.running;
  };
  /** Until no cohort folds (one waiting to retry a failure does not count). */
  const settleAll = async (): Promise<void> => {
    for (;;) {
      const busy = [...cohorts].filter((c) => c.running);
      if (busy.length === 0) return;
      await Promise.all(busy.map(settle));
    }
  };

  for (const l of lanes) await loadLane(l, store, cache);
  const byPosition = new Map<number, Lane[]>();
  for (const l of lanes)
    byPosition.set(l.checkpoint.position, [...(byPosition.get(l.checkpoint.position) ?? []), l]);
  for (const group of byPosition.values()) cohort(group);
  const live: Subscription = log.live().subscribe(() => void wakeAll());
  await wakeAll();
  await settleAll();

  const waitFor = async (position: number, wait: WaitOptions = {}): Promise<void> => {
    const asked = pick(wait.models);
    const behind = asked.filter((l) => l.checkpoint.position < position);
    if (behind.length === 0) return;
    const timeoutMs = wait.timeoutMs ?? 10_000;
    try {
      await Promise.all(
        behind.map((l) => {
          void wake(cohortOf.get(l)!);
          return firstValueFrom(
            l.folded$.pipe(
              filter((p) => p >= position),
              timeout(timeoutMs),
            ),
          );
        }),
      );
    } catch {
      const late = asked.filter((l) => l.checkpoint.position < position);
      throw new ProjectionTimeoutError(
        position,
        late.map((l) => ({ name: l.projector.name, position: l.checkpoint.position })),
      );
    }
  };

  const rebuild = async (names: string[], onProgress?: Progress): Promise<void> => {
    const chosen = pick(names);
    const owners = new Set(chosen.map((l) => cohortOf.get(l)!));
    for (const o of owners) o.paused = true;
    try {
      await Promise.all([...owners].map(settle));
      for (const o of owners) o.lanes = o.lanes.filter((l) => !chosen.includes(l));
    } finally {
      for (const o of owners) {
        o.paused = false;
        if (o.lanes.length > 0) void wake(o);
        else {
          if (o.retry) clearTimeout(o.retry);
          cohorts.delete(o);
        }
      }
    }
    for (const l of chosen) {
      delete l.error;
      l.soloUntil = 0;
      await resetLane(l, store, cache);
    }
    const c = cohort([...chosen], onProgress);
    try {
      await wake(c);
      await settle(c);
    } finally {
      delete c.progress;
    }
    const broken = chosen.filter((l) => l.error);
    if (broken.length > 0)
      throw new Error(
        broken.map((l) => `rebuilding ${l.projector.name} failed: ${l.error}`).join('; '),
      );
  };

  return {
    waitFor,
    rebuild: (names = [], onProgress) => rebuild(names, onProgress),
    async status() {
      const head = await log.head();
      return lanes.map((l) => ({
        name: l.projector.name,
        ...l.checkpoint,
        head,
        ...(l.error ? { error: l.error } : {}),
      }));
    },
    async stop() {
      stopped = true;
      live.unsubscribe();
      for (const c of cohorts) if (c.retry) clearTimeout(c.retry);
      await settleAll();
      for (const l of lanes) l.folded$.complete();
    },
  };
};
