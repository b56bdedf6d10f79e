/**
 * How long a follower waits for the writer. A writer that holds the lock but stopped answering
 * (stopped, swapping, deadlocked) must not hang every follower: each call gives up after its
 * operation's time and says so. Rebuilds and migrations fold the whole log: they get long.
 */
const DEFAULT_MS = 30_000;
const LONG_MS = 30 * 60_000;

/** Ops that only read: a timeout leaves nothing in doubt. */
const READS =
  /^(log\.(readStream|streamExists|readAll|readProject|readRaw|head|getIdempotency|writeFault)|models\.(get|getMany|range)|projections\.(waitFor|status))$/;
const LONG = /rebuild|migrat/;

/** The time a call of `op` may take; INTENTLOG_WRITER_TIMEOUT_MS overrides the default. */
export const timeoutFor = (op: string): number => {
  if (LONG.test(op)) return LONG_MS;
  const configured = Number(process.env.INTENTLOG_WRITER_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_MS;
};

/**
 * The writer did not answer in time. For a write the outcome is unknown: it may have committed.
 * Retrying with the same idempotency key (or append id) is safe: a committed first attempt is
 * recognised and answered, never done twice.
 */
export class WriterTimeoutError extends Error {
  readonly code = 'writer_timeout';
  readonly outcome: 'unknown' | undefined;
  constructor(
    readonly op: string,
    ms: number,
  ) {
    const read = READS.test(op);
    super(
      `the writer process did not answer ${op} within ${ms} ms` +
        (read
          ? ''
          : '; the write may or may not have happened: retry with the same idempotency key ' +
            '(safe: a committed first attempt is answered, not repeated)'),
    );
    this.name = 'WriterTimeoutError';
    this.outcome = read ? undefined : 'unknown';
  }
}

/** `promise`, or a WriterTimeoutError for `op` once its time is up. */
export const withTimeout = <T>(op: string, promise: Promise<T>, onTimeout?: () => void) => {
  const ms = timeoutFor(op);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new WriterTimeoutError(op, ms));
    }, ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
};
