import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  commandPathEmmettMemoryRate as commandPathEmmettMemory,
  commandPathLevelDbRate as commandPathLevelDb,
  rawConcurrentRate as rawConcurrent,
  rawLevelDbRate as rawLevelDb,
  recordBytes,
  type Rate,
} from './appends.js';
import { inChild, resultsFile } from './child.js';
import { replays } from './replays.js';
import { commandFigures, commandsReport, COMMANDS_HEADING } from './commands.js';
import type { BuildArgs, BuildResult } from './logs.js';
import { report, type Results } from './report.js';
import { median, percentile } from './stats.js';
import { PAYLOAD_BYTES } from './workload.js';

/**
 * `npm run bench [-- --quick]`: every measurement of bench/README.md in one run, printed and
 * written to bench/RESULTS.md with the command that produced it. `-- --only commands` runs just
 * the multi-stream and long-stream commands and replaces their section of RESULTS.md;
 * `-- --only replay` prints the replay figures alone.
 */
const quick = process.argv.includes('--quick');
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : undefined;
const size = quick
  ? {
      perWriter1: 400,
      perWriter32: 40,
      raw1: 400,
      raw32: 32 * 40,
      rawConcurrent: 20,
      small: 10_000,
      large: 100_000,
    }
  : {
      perWriter1: 2000,
      // 32,000 events a run: seconds of steady state, not the JIT's first fraction of one
      perWriter32: 1000,
      raw1: 2000,
      raw32: 32 * 1000,
      rawConcurrent: 200,
      small: 10_000,
      large: 1_000_000,
    };
const RUNS = 3;
// The append figures move most with the disk's mood (fsync times changed ×2 within minutes
// here), and a run of all of them takes ~15 s: five runs' medians.
const APPEND_RUNS = 5;
const LATENCY_STREAMS = 300;
const READ_STREAMS = 200;

const note = (message: string) => process.stderr.write(`bench: ${message}\n`);
const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
  note(`${what} …`);
  return fn();
};

const APPENDS = {
  raw1: ['raw LevelDB, 1 event per durable batch', () => rawLevelDb(1, size.raw1)],
  level1: ['command path on LevelDB, 1 writer', () => commandPathLevelDb(1, size.perWriter1)],
  raw32: ['raw LevelDB, 32 events per durable batch', () => rawLevelDb(32, size.raw32)],
  raw32keys: [
    "raw LevelDB, 32 events per durable batch with the log's index keys",
    () => rawLevelDb(32, size.raw32, 'with'),
  ],
  raw16keys: [
    "raw LevelDB, 16 events per durable batch with the log's index keys",
    () => rawLevelDb(16, size.raw32, 'with'),
  ],
  raw32concurrent: [
    'raw LevelDB, 32 concurrent writers, one durable batch per event',
    () => rawConcurrent(32, size.rawConcurrent),
  ],
  level32: ['command path on LevelDB, 32 writers', () => commandPathLevelDb(32, size.perWriter32)],
  memory1: [
    "Emmett's in-memory store, 1 writer",
    () => commandPathEmmettMemory(1, size.perWriter1),
  ],
  memory32: [
    "Emmett's in-memory store, 32 writers",
    () => commandPathEmmettMemory(32, size.perWriter32),
  ],
} as const;
type AppendKey = keyof typeof APPENDS;

/**
 * Every append measurement once per run, interleaved, so a command-path figure and its raw
 * reference see the same neighbours: ratios are the median of each run's own ratio.
 */
const appends = async () => {
  const runs: Record<AppendKey, Rate>[] = [];
  for (let i = 0; i < APPEND_RUNS; i++) {
    const run = {} as Record<AppendKey, Rate>;
    for (const [key, [what, measure]] of Object.entries(APPENDS))
      run[key as AppendKey] = await step(`${what}, run ${i + 1}`, measure);
    runs.push(run);
  }
  const keys = Object.keys(APPENDS) as AppendKey[];
  const each = (figure: (r: Rate) => number) =>
    Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => figure(r[k])))])) as Record<
      AppendKey,
      number
    >;
  const ratio = (k: AppendKey, raw: AppendKey) => median(runs.map((r) => r[k].rate / r[raw].rate));
  return {
    runs: APPEND_RUNS,
    rates: each((r) => r.rate),
    cpuUs: each((r) => r.cpuUs),
    ratios: {
      level1: ratio('level1', 'raw1'),
      level32: ratio('level32', 'raw32'),
      level32keys: ratio('level32', 'raw32keys'),
      level32pipelined: ratio('level32', 'raw16keys'),
      level32concurrent: ratio('level32', 'raw32concurrent'),
      memory1: ratio('memory1', 'raw1'),
      memory32: ratio('memory32', 'raw32'),
    },
  };
};

const build = (dir: string, events: number, readStreams: number) =>
  step(`building a log of ${events.toLocaleString('en-US')} events`, () =>
    inChild<BuildResult>('build-log', {
      dir,
      events,
      latencyStreams: LATENCY_STREAMS,
      readStreams,
    } satisfies BuildArgs),
  );

type Timings = { first: number[]; again: number[] };
type Latency = { cold: { p50: number; p99: number }; warm: { p50: number; p99: number } };

/**
 * Per data dir: p50/p99 of the first touch of each stream and of a second one, medians of
 * runs. With several dirs, one process opens them all and alternates between them command by
 * command, so disk and CPU contention fall on each alike.
 */
const latencies = async (dirs: string[], mode: 'command' | 'read', streams: number) => {
  const runs: Timings[][] = [];
  for (let i = 0; i < RUNS; i++)
    runs.push(await inChild<Timings[]>('latency', { dirs, mode, streams, rounds: 2 }));
  return dirs.map((_, d): Latency => {
    const summary = (pick: (t: Timings) => number[]) => ({
      p50: median(runs.map((run) => percentile(pick(run[d]!), 50))),
      p99: median(runs.map((run) => percentile(pick(run[d]!), 99))),
    });
    return { cold: summary((t) => t.first), warm: summary((t) => t.again) };
  });
};

/** Writes RESULTS.md, keeping the "## PostgreSQL" section `npm run bench:pg` maintains at its end. */
const writeResults = async (text: string): Promise<void> => {
  const file = resultsFile;
  const previous = await readFile(file, 'utf8').catch(() => '');
  const at = previous.search(/^## PostgreSQL$/m);
  await writeFile(file, at < 0 ? text : `${text.trimEnd()}\n\n${previous.slice(at)}`);
};

/** Replaces (or inserts before "## PostgreSQL") the commands section of RESULTS.md. */
const writeCommandsSection = async (section: string): Promise<void> => {
  const previous = await readFile(resultsFile, 'utf8').catch(() => '');
  const start = previous.indexOf(COMMANDS_HEADING);
  const rest = (from: number) => {
    const next = previous.slice(from + 1).search(/^## /m);
    return next < 0 ? '' : previous.slice(from + 1 + next);
  };
  const text =
    start >= 0
      ? `${previous.slice(0, start)}${section}\n${rest(start)}`
      : (() => {
          const at = previous.search(/^## PostgreSQL$/m);
          return at < 0
            ? `${previous.trimEnd()}\n\n${section}`
            : `${previous.slice(0, at)}${section}\n${previous.slice(at)}`;
        })();
  await writeFile(resultsFile, text);
};

const onlyCommands = async (): Promise<void> => {
  const figures = await commandFigures(quick, note);
  const command = `npm run bench -- --only commands${quick ? ' --quick' : ''}`;
  const section = commandsReport(figures, command, true);
  process.stdout.write(section);
  if (!quick) await writeCommandsSection(section);
};

const main = async (): Promise<void> => {
  const root = await mkdtemp(join(tmpdir(), 'intentlog-bench-logs-'));
  try {
    const started = Date.now();
    const loadAtStart = loadavg()[0]!;
    const a = await appends();
    const small = join(root, 'small');
    const large = join(root, 'large');
    const builtSmall = await build(small, size.small, 0);
    const builtLarge = await build(large, size.large, READ_STREAMS);
    const replay = await replays(large, RUNS, note);
    const [reads] = await step('reading 100-event streams', () =>
      latencies([large], 'read', READ_STREAMS),
    );
    const [commandSmall, commandLarge] = await step(
      `command latency, logs of ${size.small} and ${size.large} events, alternating`,
      () => latencies([small, large], 'command', LATENCY_STREAMS),
    );
    const commands = await commandFigures(quick, note);
    const results: Results = {
      quick,
      command: `npm run bench${quick ? ' -- --quick' : ''}`,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      workload: { payloadBytes: PAYLOAD_BYTES, recordBytes: recordBytes() },
      appends: a,
      build: { small: builtSmall, large: builtLarge },
      replay,
      reads: reads!,
      latency: { small: commandSmall!, large: commandLarge!, sizes: [size.small, size.large] },
      minutes: (Date.now() - started) / 60_000,
      load: [loadAtStart, loadavg()[0]!],
    };
    const text = `${report(results).trimEnd()}\n\n${commandsReport(commands, results.command, false)}`;
    process.stdout.write(text);
    if (!quick) await writeResults(text);
    else note('--quick: bench/RESULTS.md left as it is (it records the full run)');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
};

/** `--only replay`: the replay figures alone, printed (RESULTS.md is left as it is). */
const onlyReplay = async (): Promise<void> => {
  const root = await mkdtemp(join(tmpdir(), 'intentlog-bench-logs-'));
  try {
    const large = join(root, 'large');
    await build(large, size.large, READ_STREAMS);
    const load = loadavg()[0]!;
    const r = await replays(large, RUNS, note);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    process.stdout.write(
      `replay of ${r.events} events (load ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}): ` +
        `raw ${Math.round(r.raw)} ev/s; the bench's view alone ${Math.round(r.view)} ev/s ` +
        `(${pct(r.viewRatio)}); every read model ${Math.round(r.engine)} ev/s ` +
        `(${pct(r.engineRatio)}); medians of ${RUNS} runs' own ratios; ` +
        `peak ${Math.round(r.peakAnon / 2 ** 20)} MB anonymous (VmHWM ${Math.round(r.peakRss / 2 ** 20)} MB)\n`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
};

if (only === 'commands') await onlyCommands();
else if (only === 'replay') await onlyReplay();
else if (only) throw new Error(`--only knows "commands" and "replay", not "${only}"`);
else await main();
