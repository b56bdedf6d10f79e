import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';

const here = new URL('.', import.meta.url).pathname;

/**
 * `npm run bench` runs the benchmarks compiled (tsconfig.bench.json), as the product ships:
 * through tsx, every closure the hot path creates would also pay esbuild's name helper.
 */
const compiled = import.meta.url.endsWith('.js');

/** bench/RESULTS.md in the source tree, wherever this module runs from. */
export const resultsFile = compiled
  ? new URL('../../../bench/RESULTS.md', import.meta.url)
  : new URL('RESULTS.md', import.meta.url);

/**
 * Runs bench/child/<script> in a fresh Node process (its own heap, caches and RSS) and
 * returns the JSON it prints as its last stdout line. Its stderr goes to ours.
 */
export const inChild = <T>(script: string, args: object): Promise<T> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      compiled
        ? [`${here}child/${script}.js`, JSON.stringify(args)]
        : ['--import', 'tsx', `${here}child/${script}.ts`, JSON.stringify(args)],
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

export type Memory = {
  /** VmHWM: the high-water mark of all resident pages, file-backed ones included */
  peakRss: number;
  /** the highest anonymous resident memory sampled (heap, native allocations) */
  peakAnon: number;
};

const status = async (): Promise<Record<string, number>> => {
  const text = await readFile('/proc/self/status', 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
  return { VmHWM: kb('VmHWM'), RssAnon: kb('RssAnon') };
};

/**
 * Samples this process's memory every 50 ms until stopped. LevelDB reads its table files
 * through mmap, so the pages of the files a replay reads count in RSS (RssFile, VmHWM) although
 * they are the OS page cache, shared and reclaimable: the anonymous part is the process's own.
 * Linux only; elsewhere both figures are process.memoryUsage().rss.
 */
export const memorySampler = () => {
  let peakAnon = 0;
  const sample = async () => {
    try {
      peakAnon = Math.max(peakAnon, (await status()).RssAnon!);
    } catch {
      peakAnon = Math.max(peakAnon, process.memoryUsage().rss);
    }
  };
  const timer = setInterval(() => void sample(), 50);
  return {
    async stop(): Promise<Memory> {
      clearInterval(timer);
      await sample();
      const hwm = await status().catch(() => ({ VmHWM: process.memoryUsage().rss }));
      return { peakRss: hwm.VmHWM!, peakAnon };
    },
  };
};
