import { spawn } from 'node:child_process';

const here = new URL('.', import.meta.url).pathname;

/**
 * Runs bench/child/<script>.ts in a fresh Node process (its own heap, caches and RSS) and
 * returns the JSON it prints as its last stdout line. Its stderr goes to ours.
 */
export const inChild = <T>(script: string, args: Record<string, unknown>): Promise<T> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', `${here}child/${script}.ts`, JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`bench child ${script} exited with ${code}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`bench child ${script} printed no result: ${last}`));
      }
    });
  });

/** In a child script: its arguments. */
export const childArgs = <T>(): T => JSON.parse(process.argv[2] ?? '{}') as T;

/** In a child script: hand the result to the parent. */
export const reply = (result: unknown): void => {
  process.stdout.write(`${JSON.stringify(result)}\n`);
};

/** Peak resident set size of this process so far, in bytes (Linux VmHWM; else current RSS). */
export const peakRss = async (): Promise<number> => {
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile('/proc/self/status', 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss;
};
