import type { Logger } from 'pino';
import { ioCauseOf } from '../events/io-errors.js';

/** Failures of the outside world that leave the process's own state intact. */
const OPERATIONAL = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ERR_STREAM_DESTROYED',
]);

const isOperational = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && OPERATIONAL.has(code)) || ioCauseOf(error) !== undefined;
};

/**
 * For the long-lived commands (`serve`, `mcp`): a promise rejected where nobody awaited it is
 * logged and the server keeps serving (the operation it belonged to has already failed, or will
 * be retried; the log's durable state is not touched by a lost rejection). An uncaught exception
 * is logged too, and keeps serving only when it is operational (a full disk, a dropped
 * connection); any other one leaves memory in an unknown state, so the process exits 1 after
 * logging it, and the next start recovers from what is durable.
 */
export const guardProcess = (log: Logger): (() => void) => {
  const rejected = (reason: unknown): void => {
    log.error({ err: reason }, 'unhandled rejection (kept serving)');
  };
  const thrown = (error: Error): void => {
    if (isOperational(error)) {
      log.error({ err: error }, 'uncaught operational error (kept serving)');
      return;
    }
    log.fatal({ err: error }, 'uncaught exception: stopping');
    process.exitCode = 1;
    setImmediate(() => process.exit(1));
  };
  process.on('unhandledRejection', rejected);
  process.on('uncaughtException', thrown);
  return () => {
    process.off('unhandledRejection', rejected);
    process.off('uncaughtException', thrown);
  };
};
