/** errno codes that say the data dir (or the machine) cannot take a write right now. */
export const IO_CODES: Readonly<Record<string, string>> = {
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
export const causeChain = (error: unknown): Coded[] => {
  const seen: Coded[] = [];
  for (let at = error; at && typeof at === 'object' && !seen.includes(at as Coded);) {
    seen.push(at as Coded);
    at = (at as Coded).cause;
  }
  return seen;
};

/** The errno code of an I/O failure anywhere in the chain (ENOSPC, EROFS, …), if any. */
export const ioCauseOf = (error: unknown): string | undefined => {
  for (const e of causeChain(error)) {
    if (typeof e.code === 'string' && Object.hasOwn(IO_CODES, e.code)) return e.code;
    const text = typeof e.message === 'string' ? e.message : '';
    const found = IO_TEXT.find(([pattern]) => pattern.test(text));
    if (found) return found[1];
  }
  return undefined; // e.g. a missing file: not an outage to wait out, the message says what
};
