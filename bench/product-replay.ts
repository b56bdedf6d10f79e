/**
 * `node --import tsx bench/product-replay.ts [events=1000000] [runs=3]`: the replay of a
 * product-shaped log (bench/product-log.ts, built once and reused) through every read model,
 * against raw iterate + decode of the same log, side by side in each run; with peak RSS and
 * the load average. Prints one line of figures and their JSON.
 */
import { loadavg } from 'node:os';
import { productLog } from './product-log.js';
import { replays } from './replays.js';

const events = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 3);
/** a time budget for building the log (minutes; PRODUCT_LOG_MINUTES), none by default */
const minutes = Number(process.env.PRODUCT_LOG_MINUTES ?? Infinity);
const note = (message: string) => process.stderr.write(`bench: ${message}\n`);

const { dataDir, built } = await productLog(events, note, minutes);
note(
  `the log: ${built.events} events written in ${(built.ms / 1000).toFixed(0)} s ` +
    `(${Math.round(built.events / (built.ms / 1000))} events/s, ${built.workers} workers, ` +
    `calls refused: ${JSON.stringify(built.refused)})` +
    (built.stoppedEarly ? `; its time budget ran out before ${events} events` : ''),
);
const load = loadavg()[0]!;
const r = await replays(dataDir, runs, note, 'product');
const MB = 2 ** 20;
console.log(
  `product-shaped log of ${r.events} events (load ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}): ` +
    `raw ${Math.round(r.raw)} ev/s, every read model ${Math.round(r.engine)} ev/s = ` +
    `${(100 * r.engineRatio).toFixed(1)}% (median of ${runs} runs' ratios); CPU ${Math.round(r.cpuMs.engine)} ` +
    `vs ${Math.round(r.cpuMs.raw)} ms; peak ${Math.round(r.peakAnon / MB)} MB anonymous ` +
    `(VmHWM ${Math.round(r.peakRss / MB)} MB)`,
);
console.log(JSON.stringify({ built, ...r }));
