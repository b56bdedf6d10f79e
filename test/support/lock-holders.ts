import { readFile, stat } from 'node:fs/promises';

/** Linux packs a device number's major and minor into st_dev; /proc/locks prints them in hex. */
const deviceOf = (dev: number): string => {
  const big = BigInt(dev);
  const major = Number(((big >> 8n) & 0xfffn) | ((big >> 32n) & ~0xfffn));
  const minor = Number((big & 0xffn) | ((big >> 12n) & ~0xffn));
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`;
};

/**
 * The processes holding a POSIX (fcntl) lock on `file`, from /proc/locks (Linux only): what
 * LevelDB's LOCK is held with. Undefined where /proc/locks does not exist.
 */
export const lockHolders = async (file: string): Promise<number[] | undefined> => {
  const table = await readFile('/proc/locks', 'utf8').catch(() => undefined);
  if (table === undefined) return undefined;
  const { dev, ino } = await stat(file);
  const id = `${deviceOf(dev)}:${ino}`;
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[1] === 'POSIX' && f[5] === id)
    .map((f) => Number(f[4]));
};

export const canSeeLocks = process.platform === 'linux';
