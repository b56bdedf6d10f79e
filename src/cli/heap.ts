import { setFlagsFromString } from 'node:v8';

/**
 * How far past what is live V8 lets its old space grow before its next full collection, in
 * percent. Left to itself V8 grows it by up to 4× on a machine with a large heap limit (the
 * default here), so a server or a rebuild whose live heap stands at ~90 MB held 400-800 MB
 * (bench/RESULTS.md, sessions 15-19). With the read models' cache bounded in bytes
 * (projections/model-cache.ts) what is live is bounded, and so, with this, is the heap.
 */
export const HEAP_GROWING_PERCENT = 50;

const FLAG = '--heap-growing-percent';

/**
 * Sizes V8's old space from inside the process: the user passes no flag. V8 reads this flag
 * each time it sets its next limit, so setting it at start-up takes effect (measured: a churn
 * of 60 MB live peaked at 147 MB resident with it set here, as with it on the command line,
 * against 215 MB without). `--max-old-space-size` would not: the heap's limit is fixed when
 * the isolate is made, before any script runs. A flag the user gave (command line or
 * NODE_OPTIONS) is left as it is.
 */
export const sizeHeap = (): void => {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) =>
    a.replaceAll('_', '-').includes(FLAG),
  );
  if (!given) setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
};
