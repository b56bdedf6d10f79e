import { performance } from 'node:perf_hooks';
import type { Subscription } from 'rxjs';
import type { EventLog } from '../events/index.js';
import { pageWriter, SLOW_LANE_MS, without, type FoldedPage } from './cohort-page.js';
import { faultLane, laneStatus, loadLane, newLane, resetLane, visible, type Lane } from './lane.js';
import { saveIdleCheckpoints } from './lane-checkpoint.js';
import { laneIndex } from './lane-index.js';
import { EFFECT_DEADLINE_MS, effectRunner, settleOwed } from './lane-effect.js';
import { waitForLanes } from './lane-wait.js';
import { modelCache } from './model-cache.js';
import { PAGE, pageReader } from './page-reader.js';
import type { Projector } from './projector.js';
import type { EngineOptions, ProjectionEngine, Progress, WaitOptions } from './engine-types.js';

/** A failed fold is tried again after this long, doubling up to the maximum. */
const RETRY_MS = { first: 50, max: 5_000 };
/** A lane found slow on a page goes on alone this long (ms) before it may merge back. */
const SOLO_MS = 10_000;
/** An idle read model's checkpoint is written at least this often (pages): a restart rereads no more. */
export const IDLE_CHECKPOINT_PAGES = 16;

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
 * one that is slow, failing or rebuilding holds up only itself (see `Cohort`). One that failed
 * (its projector or effect threw, its write was refused) carries the fault in its status, its
 * waiters are answered at once, and it is tried again with backoff, on restart and by a
 * rebuild. Bumping a projector's version resets its keyspace and rebuilds it from the log.
 */
export const startProjections = async (
  log: EventLog,
  projectors: readonly Projector[],
  options: EngineOptions = {},
): Promise<ProjectionEngine> => {
  const store = log.models;
  const pages = pageReader(log);
  const cache = modelCache({ generation: store.keyGeneration });
  const { onError } = options;
  const effects = options.effects
    ? effectRunner(store, options.effectDeadlineMs ?? EFFECT_DEADLINE_MS, onError)
    : undefined;
  const lanes = projectors.map(newLane);
  const writer = pageWriter({
    store,
    cache,
    index: laneIndex(lanes),
    checkpointEvery: options.idleCheckpointPages ?? IDLE_CHECKPOINT_PAGES,
    slowMs: options.slowLaneMs ?? SLOW_LANE_MS,
    ...(effects ? { effects } : {}),
    ...(onError ? { onError } : {}),
  });
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

  /**
   * Lanes that stopped (their fault recorded) wait to be tried again in a cohort of their own;
   * when they are all of `c`, `c` waits itself, its backoff growing.
   */
  const stop = (c: Cohort, stopped: readonly Lane[]): void => {
    // a lane split off (slow) while its page was written is already in a cohort of its own
    const out = stopped.filter((l) => c.lanes.includes(l));
    if (out.length === 0) return;
    failedCohort(out.length === c.lanes.length ? c : split(c, out));
  };

  /** Failing and slow lanes go on in cohorts of their own. */
  const leave = (c: Cohort, page: FoldedPage): void => {
    for (const { lane, error, position } of page.failed) {
      faultLane(lane, 'fold', position, error);
      onError?.(error, lane.projector.name);
    }
    stop(
      c,
      page.failed.map((f) => f.lane),
    );
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
    stop(c, await settleOwed(c.lanes, effects));
    let writing: Promise<Lane[]> = Promise.resolve([]);
    try {
      do {
        c.again = false;
        if (c.lanes.length === 0 || c.retry) return;
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
          const folded = await writer.fold(c.lanes, events, !c.progress);
          // lanes that stopped on the page before go no further: not this page either
          const stalled = await writing;
          stop(c, stalled);
          const page = without(folded, stalled);
          writing = writer.commit(page);
          leave(c, page);
          if (c.lanes.length === 0 || c.retry) break;
          // only lanes at or past this page's end: one behind it would miss the page
          absorb(c, end, end + PAGE);
          c.progress?.(end, await log.head());
        }
        stop(c, await writing);
        writing = Promise.resolve([]);
      } while (c.again && !c.paused && !stopped && !c.retry);
    } catch (error) {
      // no retry may start while a write it would repeat is still in flight
      await writing.catch(() => undefined);
      throw error;
    }
  };

  /** A failed fold, write or effect is reported and tried again, never dropped. */
  const failedCohort = (c: Cohort): void => {
    if (c.retry) return;
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
        if (!c.retry) c.failures = 0;
        delete c.running;
        if (c.lanes.length === 0) cohorts.delete(c);
      },
      (error: unknown) => {
        // the log could not be read: every lane of the cohort stops where it stands
        delete c.running;
        for (const l of c.lanes) {
          faultLane(l, 'read', l.checkpoint.position, error);
          onError?.(error, l.projector.name);
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
    for (const l of asked) if (visible(l) < position) void wake(cohortOf.get(l)!);
    await waitForLanes(asked, position, wait.timeoutMs ?? 10_000);
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
    const broken = chosen.filter((l) => l.fault);
    if (broken.length > 0)
      throw new Error(
        broken.map((l) => `rebuilding ${l.projector.name} failed: ${l.fault!.message}`).join('; '),
      );
  };

  return {
    waitFor,
    rebuild: (names = [], onProgress) => rebuild(names, onProgress),
    async status() {
      const head = await log.head();
      return lanes.map((l) => laneStatus(l, head));
    },
    async stop() {
      stopped = true;
      live.unsubscribe();
      for (const c of cohorts) if (c.retry) clearTimeout(c.retry);
      await settleAll();
      await saveIdleCheckpoints(lanes, store, onError);
      for (const l of lanes) {
        l.folded$.complete();
        l.faulted$.complete();
      }
    },
  };
};
