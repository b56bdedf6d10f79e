import { performance } from 'node:perf_hooks';
import { openEventLog } from '../../src/events/open-log.js';
import { childArgs, reply } from '../child.js';
import { latencyStream, readStream } from '../logs.js';
import { benchCatalog, benchCommand } from '../workload.js';

type Args = { dirs: string[]; mode: 'command' | 'read'; streams: number; rounds: number };
const { dirs, mode, streams, rounds } = childArgs<Args>();

// A fresh process on built logs: each stream's first touch loads it from disk, not a cache.
const logs = await Promise.all(
  dirs.map((dir) => openEventLog({ dataDir: dir, catalog: benchCatalog })),
);
const timings = logs.map(() => ({ first: [] as number[], again: [] as number[] }));
for (let round = 0; round < rounds; round++)
  for (let k = 0; k < streams; k++)
    for (let i = 0; i < logs.length; i++) {
      // alternate which log goes first, so neither always follows the other's fsync
      const d = (i + k) % logs.length;
      const log = logs[d]!;
      const started = performance.now();
      if (mode === 'command') await benchCommand(log, latencyStream(k), round * streams + k);
      else await log.readStream(readStream(k));
      timings[d]![round === 0 ? 'first' : 'again'].push(performance.now() - started);
    }
await Promise.all(logs.map((log) => log.close()));
reply(timings);
