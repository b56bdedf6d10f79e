import type { WriteFault } from '../event-log.js';
import { IO_CODES, ioCauseOf } from '../io-errors.js';
import type { LevelDb } from './level-db.js';
import { probeSpace } from './write-probe.js';

/**
 * A write on a store that is about to be closed and opened again (space came back): nothing was
 * written, so the caller retries it on the reopened store (route-keeper.ts does).
 */
export class StoreReopeningError extends Error {
  readonly code = 'store_reopening';
  constructor() {
    super('the store is being reopened after a failed write; retry');
  }
}

export type GuardedDb = {
  db: LevelDb;
  /** resolves once the store must be closed and opened again (with the error that failed it) */
  failed: Promise<unknown>;
  /** why writes are refused now, while they are */
  fault(): WriteFault | undefined;
  /** stops probing (the store is closing) */
  stop(): void;
};

/** First probe soon after the failure, then less often: an idle server recovers on its own. */
const PROBE_MS = [250, 500, 1000, 2000];

/**
 * LevelDB after a failed write (a full disk, EIO) may have left a torn record in its write-ahead
 * log and still counts the bytes it meant to write: later records land off their block
 * boundaries and are dropped as corrupt when the log is next recovered, though acknowledged. And
 * a batch whose fsync failed may yet reappear at recovery, behind the heads the writer keeps. So
 * the first failed write poisons the handle: every later write fails at once with that error
 * (the caller's `unavailable`, naming ENOSPC), nothing is written on top of a torn log, and the
 * handle keeps answering reads from what is durable (LevelDB leaves a failed batch out of its
 * memtable). When the cause is one that passes (a full disk, a quota, a read-only remount), the
 * data dir is probed (write-probe.ts) on every refused write and on a timer; once a probe
 * succeeds, `failed` resolves so the owner closes the store and opens it afresh (recovery
 * rereads what is durable, heads included), and the writes refused meanwhile are told to retry.
 * Any other failure resolves `failed` at once.
 */
export const guardWrites = (
  db: LevelDb,
  options: {
    dataDir: string;
    location: string;
    /** told once, when writes start being refused */
    onFault?: (fault: WriteFault, error: unknown) => void;
    probe?: () => Promise<void>;
  },
): GuardedDb => {
  const probe = options.probe ?? (() => probeSpace(options.dataDir, options.location));
  let poison: Error | undefined;
  let fault: WriteFault | undefined;
  let reopening = false;
  let probing: Promise<boolean> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let report!: (error: unknown) => void;
  const failed = new Promise<unknown>((resolve) => (report = resolve));

  const reopen = (error: unknown): void => {
    reopening = true;
    clearTimeout(timer);
    report(error);
  };

  /** One probe at a time; true once the store is to be reopened. */
  const probeNow = (): Promise<boolean> =>
    (probing ??= probe().then(
      () => {
        probing = undefined;
        if (!reopening && !stopped) reopen(poison!.cause);
        return true;
      },
      () => {
        probing = undefined;
        return false;
      },
    ));

  const probeLater = (attempt: number): void => {
    if (stopped || reopening) return;
    timer = setTimeout(
      () => {
        void probeNow().then((done) => done || probeLater(attempt + 1));
      },
      PROBE_MS[Math.min(attempt, PROBE_MS.length - 1)],
    );
    timer.unref();
  };

  const poisonWith = (error: unknown): void => {
    const why = error instanceof Error ? error.message : String(error);
    poison = Object.assign(new Error(`a write failed (${why}); the store refuses writes`), {
      code: 'LEVEL_IO_ERROR',
      cause: error,
    });
    const cause = ioCauseOf(error);
    fault = {
      cause: cause ?? 'unknown',
      message: cause ? `${IO_CODES[cause]}: ${why}` : why,
      since: new Date().toISOString(),
    };
    options.onFault?.(fault, error);
    if (cause) probeLater(0);
    else reopen(error);
  };

  /** A write on the poisoned handle: refused, after a probe that may find the space back. */
  const refuse = async (): Promise<never> => {
    if (!reopening && (await probeNow())) throw new StoreReopeningError();
    if (reopening) throw new StoreReopeningError();
    throw poison!;
  };

  const batch = db.batch.bind(db) as () => ReturnType<LevelDb['batch']>;
  const guarded = (): ReturnType<LevelDb['batch']> => {
    const chained = batch();
    const write = chained.write.bind(chained);
    chained.write = (async (writeOptions?: object) => {
      if (poison) return refuse();
      try {
        return await write(writeOptions as never);
      } catch (error) {
        if (!poison && db.status === 'open') poisonWith(error);
        throw error;
      }
    }) as typeof chained.write;
    return chained;
  };
  (db as { batch: unknown }).batch = guarded;
  return {
    db,
    failed,
    fault: () => fault,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
};
