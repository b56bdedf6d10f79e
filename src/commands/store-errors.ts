import { causeChain, IO_CODES, ioCauseOf } from '../events/io-errors.js';
import { DomainError, invalidArgument } from './errors.js';

/**
 * The domain's answer to an error the log threw, where there is one: text that cannot be stored
 * is the caller's `invalid_argument`; a data dir that cannot be written (full, read-only, no
 * permission), or a writer that did not answer in time, is `unavailable`, naming the cause, so
 * the caller knows to retry later and an operator knows what to fix. Anything else stays a bug
 * (`internal`) for the caller to report.
 */
export const domainErrorOf = (error: unknown): DomainError | undefined => {
  const links = causeChain(error);
  if (links.some((e) => e.code === 'malformed_text'))
    return invalidArgument(String(links.find((e) => e.code === 'malformed_text')!.message), {
      reason: 'malformed_text',
    });
  const timedOut = links.find((e) => e.code === 'writer_timeout') as
    { message?: unknown; outcome?: string } | undefined;
  if (timedOut)
    return new DomainError('unavailable', String(timedOut.message), {
      cause: 'writer_timeout',
      ...(timedOut.outcome ? { outcome: timedOut.outcome } : {}),
    });
  const io = ioCauseOf(error);
  // a read waits for read models that could not store what they folded: nothing to write
  if (io && links.some((e) => e.code === 'read_model_failed'))
    return new DomainError(
      'unavailable',
      `the read models cannot be brought up to date: ${IO_CODES[io]} (${io}); retry once it is fixed`,
      { cause: io },
    );
  if (io)
    return new DomainError(
      'unavailable',
      `the store cannot be written: ${IO_CODES[io]} (${io}); nothing was written, retry once it is fixed`,
      { cause: io },
    );
  return undefined;
};
