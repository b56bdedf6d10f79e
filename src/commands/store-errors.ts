import { DomainError, invalidArgument } from './errors.js';

/** errno codes that say the data dir (or the machine) cannot take the write right now. */
const IO_CODES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
};

/** LevelDB reports errno only as text ("IO error: …/000005.log: No space left on device"). */
const IO_TEXT: [RegExp, string][] = [
  [/no space left on device/i, 'ENOSPC'],
  [/disk quota exceeded/i, 'EDQUOT'],
  [/permission denied/i, 'EACCES'],
  [/operation not permitted/i, 'EPERM'],
  [/read-only file system/i, 'EROFS'],
  [/input\/output error/i, 'EIO'],
  [/too many open files/i, 'EMFILE'],
];

type Coded = { code?: unknown; message?: unknown; cause?: unknown };

/** The error and its causes, outermost first (a cycle ends the walk). */
const chain = (error: unknown): Coded[] => {
  const seen: Coded[] = [];
  for (let at = error; at && typeof at === 'object' && !seen.includes(at as Coded);) {
    seen.push(at as Coded);
    at = (at as Coded).cause;
  }
  return seen;
};

/** The errno code of an I/O failure anywhere in the chain, if any. */
export const ioCauseOf = (error: unknown): string | undefined => {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && Object.hasOwn(IO_CODES, e.code)) return e.code;
    const text = typeof e.message === 'string' ? e.message : '';
    const found = IO_TEXT.find(([pattern]) => pattern.test(text));
    if (found) return found[1];
  }
  return undefined;
};

/**
 * The domain's answer to an error the log threw, where there is one: text that cannot be stored
 * is the caller's `invalid_argument`; a data dir that cannot be written (full, read-only, no
 * permission), or a writer that did not answer in time, is `unavailable`, naming the cause, so
 * the caller knows to retry later and an operator knows what to fix. Anything else stays a bug
 * (`internal`) for the caller to report.
 */
export const domainErrorOf = (error: unknown): DomainError | undefined => {
  const links = chain(error);
  if (links.some((e) => e.code === 'malformed_text'))
    return invalidArgument(String(links.find((e) => e.code === 'malformed_text')!.message), {
      reason: 'malformed_text',
    });
  const timedOut = links.find((e) => e.code === 'writer_timeout') as
    (Coded & { outcome?: string; op?: string }) | undefined;
  if (timedOut)
    return new DomainError('unavailable', String(timedOut.message), {
      cause: 'writer_timeout',
      ...(timedOut.outcome ? { outcome: timedOut.outcome } : {}),
    });
  const io = ioCauseOf(error);
  if (io)
    return new DomainError(
      'unavailable',
      `the store cannot be written: ${IO_CODES[io]} (${io}); nothing was written, retry once it is fixed`,
      { cause: io },
    );
  return undefined;
};
