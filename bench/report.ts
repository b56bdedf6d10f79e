import { fmt, pct } from './stats.js';

type Summary = { p50: number; p99: number };
type Latency = { cold: Summary; warm: Summary };

type AppendKey =
  | 'raw1'
  | 'raw32'
  | 'raw32keys'
  | 'raw16keys'
  | 'raw32concurrent'
  | 'level1'
  | 'level32'
  | 'memory1'
  | 'memory32';
type RatioKey =
  | 'level1'
  | 'level32'
  | 'level32keys'
  | 'level32pipelined'
  | 'level32concurrent'
  | 'memory1'
  | 'memory32';

export type Results = {
  quick: boolean;
  command: string;
  machine: string;
  workload: { payloadBytes: number; recordBytes: number };
  appends: {
    runs: number;
    rates: Record<AppendKey, number>;
    /** process CPU time per event, all threads */
    cpuUs: Record<AppendKey, number>;
    /** medians of each run's own ratio to the raw figure of the same batch size */
    ratios: Record<RatioKey, number>;
  };
  build: Record<'small' | 'large', { events: number; ms: number }>;
  replay: {
    events: number;
    raw: number;
    engine: number;
    /** the bench's per-stream view alone: the one read model that folds this log */
    view: number;
    /** medians of each run's own ratio to raw iterate + decode */
    engineRatio: number;
    viewRatio: number;
    peakRss: number;
    peakAnon: number;
    rawPeakRss: number;
    rawPeakAnon: number;
  };
  reads: Latency;
  latency: { small: Latency; large: Latency; sizes: [number, number] };
  minutes: number;
  /** 1-minute load average at the start and the end of the run */
  load: [number, number];
};

const MB = 2 ** 20;
const ms = (x: number) => `${x.toFixed(2)} ms`;
const n = (x: number) => x.toLocaleString('en-US');
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const mem = (anon: number, hwm: number) =>
  `${(anon / MB).toFixed(0)} MB anonymous, ${(hwm / MB).toFixed(0)} MB VmHWM`;

const targets = (r: Results) => {
  const a = r.appends.rates;
  // Decided reading (b) of the target: the reference is raw batches shaped as the log writes
  // them (its index entries, in the batches group commit makes); the other two stay reported.
  const writers = r.appends.ratios.level32pipelined;
  const replay = r.replay.engineRatio;
  const idleCost = r.replay.viewRatio - r.replay.engineRatio;
  const growth = r.latency.large.cold.p50 / r.latency.small.cold.p50 - 1;
  const anon = r.replay.peakAnon / MB;
  const [small, large] = r.latency.sizes.map(n);
  return [
    [
      '32 durable writers through the command path ≥ 50% of raw LevelDB batches shaped as the ' +
        "log writes them (reading (b): batches of 16 with the log's index keys, what a pipelined " +
        'group commit of 32 closed-loop writers puts in one fsync)',
      `${fmt(a.level32)} events/s = ${pct(writers)} of those batches (median of the runs' ` +
        `ratios, at ${fmt(a.raw16keys)} events/s); ${pct(r.appends.ratios.level32keys)} of raw ` +
        `batches of 32 with index keys; ${pct(r.appends.ratios.level32)} of plain raw batches ` +
        `of 32 (${fmt(a.raw32)} events/s)`,
      writers >= 0.5,
    ],
    [
      `replay of ${n(r.replay.events)} events through every projector ≥ 50% of raw iterate + decode`,
      `${fmt(r.replay.engine)} vs ${fmt(r.replay.raw)} events/s = ${pct(replay)}`,
      replay >= 0.5,
    ],
    [
      `replay of ${n(r.replay.events)} events through every product read model and the bench's ` +
        "view within 5 points of the bench's view alone (the others handle none of its events)",
      `${pct(r.replay.engineRatio)} vs ${pct(r.replay.viewRatio)} of raw iterate + decode ` +
        `(${fmt(r.replay.engine)} vs ${fmt(r.replay.view)} events/s), medians of the runs' ratios`,
      idleCost <= 0.05,
    ],
    [
      `command latency on ${small} vs ${large} events within 20%`,
      `p50 ${ms(r.latency.small.cold.p50)} vs ${ms(r.latency.large.cold.p50)} (${growth >= 0 ? '+' : ''}${pct(growth)})`,
      Math.abs(growth) <= 0.2,
    ],
    [
      `peak RSS replaying ${n(r.replay.events)} events < 300 MB`,
      `${anon.toFixed(0)} MB anonymous, the process's own memory (VmHWM with LevelDB's mmapped ` +
        `table files: ${(r.replay.peakRss / MB).toFixed(0)} MB; raw iterate + decode: ` +
        `${(r.replay.rawPeakRss / MB).toFixed(0)} MB)`,
      anon < 300,
    ],
  ] as const;
};

const us = (x: number) => `${x.toFixed(0)} µs`;

const appendRows = (r: Results): [string, AppendKey, string][] => {
  const { rates: a, ratios } = r.appends;
  const batch = '`sync: true` batch';
  return [
    [`raw classic-level, 1 event per ${batch}`, 'raw1', '100%'],
    [`raw classic-level, 32 events per ${batch}`, 'raw32', '100%'],
    [
      `raw classic-level, 32 events per ${batch}, with the log's stream and project index entries`,
      'raw32keys',
      pct(a.raw32keys / a.raw32),
    ],
    [
      `raw classic-level, 16 events per ${batch}, with the log's index entries: the batches a pipelined group commit of 32 closed-loop writers makes`,
      'raw16keys',
      pct(a.raw16keys / a.raw32),
    ],
    [
      `raw classic-level, 32 concurrent writers, one ${batch} per event (LevelDB's own write queue groups them)`,
      'raw32concurrent',
      pct(a.raw32concurrent / a.raw32),
    ],
    ['command path, LevelDB, 1 writer', 'level1', pct(ratios.level1)],
    [
      'command path, LevelDB, 32 concurrent writers',
      'level32',
      `${pct(ratios.level32)} (${pct(ratios.level32keys)} of the batches of 32 with index keys, ` +
        `${pct(ratios.level32pipelined)} of those of 16, ${pct(ratios.level32concurrent)} of ` +
        `32 raw concurrent writers)`,
    ],
    [
      'command path, Emmett in-memory store, 1 writer (not durable)',
      'memory1',
      pct(ratios.memory1),
    ],
    [
      'command path, Emmett in-memory store, 32 writers (not durable)',
      'memory32',
      pct(ratios.memory32),
    ],
  ];
};

/** bench/RESULTS.md: the numbers, the targets, and the command and machine they came from. */
export const report = (r: Results): string => {
  const a = r.appends.rates;
  const cpu = r.appends.cpuUs;
  const lines = [
    '# Benchmark results',
    '',
    `Produced by \`${r.command}\` on ${r.machine}, in ${r.minutes.toFixed(1)} minutes ` +
      `(load average ${r.load[0].toFixed(1)} at the start, ${r.load[1].toFixed(1)} at the end).`,
    `Workload: events with ${r.workload.payloadBytes} bytes of msgpack data (${r.workload.recordBytes}-byte stored records with the envelope and hash chain) over 2,000 streams. Medians of ${r.appends.runs} runs for appends, of 3 for the rest.`,
    r.quick ? '\n**Quick run: smaller sizes; not the figures the targets are judged on.**' : '',
    '',
    '## Targets',
    '',
    row(['target', 'measured', 'met']),
    row(['---', '---', '---']),
    ...targets(r).map(([what, measured, met]) => row([what, measured, met ? 'yes' : '**no**'])),
    '',
    '## Durable appends',
    '',
    'Process CPU per event counts every thread (LevelDB writes and fsyncs on its own threads).',
    '',
    row(['what', 'events/s', 'process CPU per event', 'vs raw LevelDB, same batch size, same run']),
    row(['---', '---:', '---:', '---:']),
    ...appendRows(r).map(([what, key, vs]) => row([what, fmt(a[key]), us(cpu[key]), vs])),
    '',
    '## Replay and reads',
    '',
    row(['what', 'figure']),
    row(['---', '---']),
    row([
      `raw iterate (nextv 1000) + msgpackr decode, ${n(r.replay.events)} events`,
      `${fmt(r.replay.raw)} events/s; peak RSS ${mem(r.replay.rawPeakAnon, r.replay.rawPeakRss)}`,
    ]),
    row([
      `replay through every projector (startProjections from empty models)`,
      `${fmt(r.replay.engine)} events/s = ${pct(r.replay.engineRatio)} of raw; ` +
        `peak RSS ${mem(r.replay.peakAnon, r.replay.peakRss)}`,
    ]),
    row([
      "replay through the bench's per-stream view alone",
      `${fmt(r.replay.view)} events/s = ${pct(r.replay.viewRatio)} of raw (median of the runs' ratios)`,
    ]),
    row([
      'read one 100-event stream, first read in a fresh process',
      `p50 ${ms(r.reads.cold.p50)}, p99 ${ms(r.reads.cold.p99)}`,
    ]),
    row([
      'read one 100-event stream again',
      `p50 ${ms(r.reads.warm.p50)}, p99 ${ms(r.reads.warm.p99)}`,
    ]),
    row([
      `building the ${n(r.build.large.events)}-event log (appendToStream, 64 in flight × 10 events)`,
      `${fmt((r.build.large.events / r.build.large.ms) * 1000)} events/s`,
    ]),
    '',
    '## Command latency (one durable command on a 10-event stream; the two logs alternate in one process)',
    '',
    row(['log size', 'first touch of the stream: p50 / p99', 'stream cached: p50 / p99']),
    row(['---', '---', '---']),
    ...(['small', 'large'] as const).map((k, i) => {
      const l = r.latency[k];
      return row([
        `${n(r.latency.sizes[i]!)} events`,
        `${ms(l.cold.p50)} / ${ms(l.cold.p99)}`,
        `${ms(l.warm.p50)} / ${ms(l.warm.p99)}`,
      ]);
    }),
    '',
  ];
  return lines.join('\n');
};
