import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * `mkdir -p`: the directory at `path` and its missing parents, each made with `mode`; nothing
 * when it exists. Not Node's `recursive`, which on Node 20 retries for ever where the kernel
 * answers ENOENT under a parent that exists (`/proc/x/y`, `/sys/...`): the process spins a core
 * and neither answers nor ends on SIGTERM. One mkdir per missing component instead, outermost
 * first, so such a path fails with ENOENT at once. Synchronous on purpose: its callers make a
 * data dir, a lock's or a spool's directory once, a few system calls, and the Hooks' bundle
 * needs it without promises.
 */
export const makeDirs = (path: string, mode = 0o777): void => {
  const target = resolve(path);
  const missing: string[] = [];
  for (let at = target; ; at = dirname(at)) {
    const entry = statSync(at, { throwIfNoEntry: false });
    // a file where the directory is asked for is refused below, by its mkdir (EEXIST)
    if (entry && (entry.isDirectory() || at !== target)) break;
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const dir of missing.reverse())
    try {
      mkdirSync(dir, { mode });
    } catch (error) {
      // made meanwhile by another process: what was asked for
      if (code(error) !== 'EEXIST' || !statSync(dir).isDirectory()) throw error;
    }
};
