import { performance } from 'node:perf_hooks';
import { readStream as readStreamName } from '../logs.js';
import { openEventLog } from '../../src/events/open-log.js';
import { childArgs, reply } from '../child.js';
import { latencyStream } from '../logs.js';
import { benchCatalog, benchCommand } from '../workload.js';

type Args = { dir: string; mode: 'command' | 'read'; streams: number; rounds: number };
const { dir, mode, streams, rounds } = childArgs<Args>();

// A fresh process on a built log: each stream's first touch loads it from disk, not a cache.
const log = await openEventLog({ dataDir: dir, catalog: benchCatalog });
const first: number[] = [];
const again: number[] = [];
for (let round = 0; round < rounds; round++)
  for (let k = 0; k < streams; k++) {
    const started = performance.now();
    if (mode === 'command') await benchCommand(log, latencyStream(k), round * streams + k);
    else await log.readStream(readStreamName(k));
    (round === 0 ? first : again).push(performance.now() - started);
  }
await log.close();
reply({ first, again });
