import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { openIntentlog } from '../src/modules/index.js';
import { STORYMAP_MODELS } from '../src/web/storymap/reads.js';
import { timeTravel } from '../src/web/time-travel.js';
import { fill } from './web-storymap-fill.js';

/**
 * `npx tsc -p tsconfig.bench.json && node .tmp/bench-build/bench/web-asof.js [dir]`: the server's
 * side of the board "as of" a position, without a browser: the story-map read models rebuilt
 * from the log at positions 2,000, 6,000 and 12,000 in turn (ASOF_AT), as the web view's time
 * travel does, with wall and CPU time for each (the CPU time is the steadier figure on a shared
 * machine). The map of bench/web-storymap.ts is filled into `dir` once (about 30 s) and reused.
 * ASOF_PROF=<file> writes a CPU profile of the rebuilds alone; prints only.
 */
const dir = process.argv[2] ?? '.tmp/web-asof-data';
const fresh = !existsSync(dir);
const app = await openIntentlog({ dataDir: dir, store: 'level' });
try {
  if (fresh) await fill(app);
  const travel = timeTravel(app);
  const positions = (process.env.ASOF_AT ?? '2000,6000,12000').split(',').map(Number);
  const profile = process.env.ASOF_PROF;
  const session = new Session();
  if (profile) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  console.log(`log of ${await app.log.head()} events, load average ${loadavg()[0]!.toFixed(1)}`);
  for (const at of positions) {
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    await travel(at, STORYMAP_MODELS);
    const { user, system } = process.cpuUsage(cpu);
    const wall = performance.now() - t0;
    console.log(
      `as of ${at}: ${wall.toFixed(0)} ms, CPU ${((user + system) / 1000).toFixed(0)} ms`,
    );
  }
  if (profile) {
    const { profile: taken } = await session.post('Profiler.stop');
    await writeFile(profile, JSON.stringify(taken));
  }
} finally {
  await app.close();
}
