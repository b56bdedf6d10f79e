import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runMultiStreamCommand } from '../src/commands/handler.js';
import { SYSTEM_META, type EventLog } from '../src/events/index.js';
import { openEventLog } from '../src/events/open-log.js';
import { median, percentile } from './stats.js';
import { benchCatalog, benchCommand, benchDecider, benchStream, payload } from './workload.js';

/** What `bench/commands.ts` measures: multi-stream commands and decisions on a long stream. */
export type CommandFigures = {
  multi: { streams: number; commands: number; perSecond: number; p50: number; p99: number };
  long: {
    events: number;
    /** the first command on the stream after a restart: the whole stream read and folded */
    first: number;
    /** a command on it once running (fold cache warm): load + decide + durable append */
    command: { p50: number; p99: number };
    /** the load and fold alone (what a decision costs before its append) */
    load: { p50: number; p99: number };
  };
};

const MULTI_STREAMS = 10;
const LONG_EVENTS = 20_000;

const timed = async (fn: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

const summary = (ms: number[]) => ({ p50: percentile(ms, 50), p99: percentile(ms, 99) });

const withLog = async <T>(body: (log: EventLog, dataDir: string) => Promise<T>): Promise<T> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-bench-commands-'));
  const log = await openEventLog({ dataDir, catalog: benchCatalog });
  try {
    return await body(log, dataDir);
  } finally {
    await log.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

/** One writer's durable commands, each appending one event to each of 10 streams atomically. */
const multiStream = (commands: number) =>
  withLog(async (log) => {
    const ms: number[] = [];
    const started = performance.now();
    for (let i = 0; i < commands; i++) {
      const streams = Array.from({ length: MULTI_STREAMS }, (_, k) => ({
        name: benchStream((i * MULTI_STREAMS + k) % 200),
        evolve: benchDecider.evolve,
        initialState: benchDecider.initialState,
      }));
      ms.push(
        await timed(() =>
          runMultiStreamCommand(log, {
            streams,
            decide: () => streams.map((_, k) => [{ type: 'bench.recorded', data: payload(k) }]),
            meta: SYSTEM_META,
            respond: (states) => states.length,
          }),
        ),
      );
    }
    const perSecond = (commands * 1000) / (performance.now() - started);
    return { streams: MULTI_STREAMS, commands, perSecond, ...summary(ms) };
  });

/** A stream of 20,000 events: its first command after a restart, then running ones. */
const longStream = (commands: number) =>
  withLog(async (first, dataDir) => {
    const stream = benchStream(0);
    for (let n = 0; n < LONG_EVENTS; n += 500)
      await first.appendToStream(
        stream,
        Array.from({ length: 500 }, (_, i) => ({ type: 'bench.recorded', data: payload(n + i) })),
      );
    await first.close();
    const log = await openEventLog({ dataDir, catalog: benchCatalog });
    try {
      const cold = await timed(() => benchCommand(log, stream, 0));
      const command: number[] = [];
      const load: number[] = [];
      for (let i = 0; i < commands; i++) {
        command.push(await timed(() => benchCommand(log, stream, i)));
        load.push(await timed(() => log.aggregateStream(stream, benchDecider)));
      }
      return {
        events: LONG_EVENTS,
        first: cold,
        command: summary(command),
        load: summary(load),
      };
    } finally {
      await log.close();
    }
  });

const RUNS = 3;

/** Medians of three runs of each. */
export const commandFigures = async (
  quick: boolean,
  note: (what: string) => void,
): Promise<CommandFigures> => {
  const multi: CommandFigures['multi'][] = [];
  const long: CommandFigures['long'][] = [];
  for (let i = 0; i < RUNS; i++) {
    note(`multi-stream commands (10 streams each), run ${i + 1} …`);
    multi.push(await multiStream(quick ? 100 : 500));
    note(`commands on a 20,000-event stream, run ${i + 1} …`);
    long.push(await longStream(quick ? 50 : 200));
  }
  const mid = <T>(xs: T[], f: (x: T) => number) => median(xs.map(f));
  return {
    multi: {
      streams: MULTI_STREAMS,
      commands: multi[0]!.commands,
      perSecond: mid(multi, (m) => m.perSecond),
      p50: mid(multi, (m) => m.p50),
      p99: mid(multi, (m) => m.p99),
    },
    long: {
      events: LONG_EVENTS,
      first: mid(long, (l) => l.first),
      command: { p50: mid(long, (l) => l.command.p50), p99: mid(long, (l) => l.command.p99) },
      load: { p50: mid(long, (l) => l.load.p50), p99: mid(long, (l) => l.load.p99) },
    },
  };
};

const ms = (x: number) => `${x.toFixed(2)} ms`;

export const COMMANDS_HEADING = '## Multi-stream and long-stream commands';

export const commandsReport = (c: CommandFigures, command: string, noisy: boolean): string =>
  [
    COMMANDS_HEADING,
    '',
    `\`${command}\`${noisy ? ' — **noisy**: measured once while other agents shared the machine' : ''}`,
    '',
    '| measurement | figure |',
    '| --- | --- |',
    `| multi-stream command (${c.multi.streams} streams, one event each, one atomic durable append), 1 writer | ${c.multi.perSecond.toFixed(0)} commands/s; p50 ${ms(c.multi.p50)}, p99 ${ms(c.multi.p99)} |`,
    `| first command on a ${c.long.events.toLocaleString('en-US')}-event stream after a restart (whole stream read and folded) | ${ms(c.long.first)} |`,
    `| command on a ${c.long.events.toLocaleString('en-US')}-event stream, running (load, decide, durable append) | p50 ${ms(c.long.command.p50)}, p99 ${ms(c.long.command.p99)} |`,
    `| load + fold of that stream for a decision, running (fold cache) | p50 ${ms(c.long.load.p50)}, p99 ${ms(c.long.load.p99)} |`,
    '',
  ].join('\n');
