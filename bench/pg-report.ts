import { fmt, pct } from './stats.js';

type AppendRates = Record<
  'level1' | 'ours1' | 'emmett1' | 'level32' | 'ours32' | 'emmett32',
  number
>;

export type PgResults = {
  quick: boolean;
  command: string;
  machine: string;
  server: string;
  appends: AppendRates & { ours32VsEmmett32: number; runs: AppendRates[] };
  replay: {
    events: number;
    /** the fewest events a full read of Emmett's log returned (its pager can skip some) */
    emmettRead: number;
    rates: Record<'levelRaw' | 'levelEngine' | 'oursRaw' | 'oursEngine' | 'emmettRaw', number>;
    build: Record<'level' | 'ours' | 'emmett', number>;
  };
  sizes: { perWriter1: number; perWriter32: number; replay: number };
  minutes: number;
  /** 1-minute load average: at the start and end, and the range over the measurements' starts */
  load: { start: number; end: number; min: number; max: number };
};

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const n = (x: number) => x.toLocaleString('en-US');

const appendRows = (a: PgResults['appends']) => [
  row(['store', '1 writer', '32 concurrent writers']),
  row(['---', '---:', '---:']),
  row(['LevelDB (embedded, `sync: true`)', fmt(a.level1), fmt(a.level32)]),
  row(['our PostgreSQL store (`src/events/postgres`)', fmt(a.ours1), fmt(a.ours32)]),
  row(["Emmett's PostgreSQL store (emmett-postgresql 0.42.0)", fmt(a.emmett1), fmt(a.emmett32)]),
];

const perRun = (a: PgResults['appends']) =>
  a.runs
    .map(
      (r, i) =>
        `run ${i + 1}: ${fmt(r.ours32)} vs ${fmt(r.emmett32)} (${pct(r.ours32 / r.emmett32)})`,
    )
    .join('; ');

const replayRows = (r: PgResults['replay']) => [
  row(['store', 'read the whole log', 'replay through every projector']),
  row(['---', '---:', '---:']),
  row([
    'LevelDB',
    `${fmt(r.rates.levelRaw)} (iterate + decode)`,
    `${fmt(r.rates.levelEngine)} (${pct(r.rates.levelEngine / r.rates.levelRaw)} of its read)`,
  ]),
  row([
    'our PostgreSQL store',
    `${fmt(r.rates.oursRaw)} (\`readRaw\`, 1000 a page)`,
    `${fmt(r.rates.oursEngine)} (${pct(r.rates.oursEngine / r.rates.oursRaw)} of its read)`,
  ]),
  row([
    "Emmett's PostgreSQL store",
    `${fmt(r.rates.emmettRaw)} (\`readMessagesBatch\`, 1000 a page)`,
    '— (its projections are its own; not comparable)',
  ]),
];

/** The "PostgreSQL" section of bench/RESULTS.md. */
export const pgReport = (r: PgResults): string => {
  const a = r.appends;
  const met = a.ours32VsEmmett32 >= 1;
  return [
    '## PostgreSQL',
    '',
    `Produced by \`${r.command}\` on ${r.machine}, against ${r.server} on the same machine, in ` +
      `${r.minutes.toFixed(1)} minutes. The machine is shared: 1-minute load average ` +
      `${r.load.start.toFixed(1)} at the start, ${r.load.end.toFixed(1)} at the end, ` +
      `${r.load.min.toFixed(1)}–${r.load.max.toFixed(1)} as the measurements started. ` +
      'Medians of 3 runs, the stores interleaved within each run. Workload as above (bench/workload.ts): ' +
      '~250-byte events over 2,000 streams; appends are durable commands through `runCommand`, ' +
      `${n(r.sizes.perWriter1)} for 1 writer and 32 × ${n(r.sizes.perWriter32)} for 32, after one ` +
      'command on every stream; every store in a fresh state each run (a fresh schema for ours, ' +
      "truncated tables for Emmett's, a fresh data dir for LevelDB).",
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    row([
      "our PostgreSQL store, 32 durable writers ≥ Emmett's PostgreSQL store on the same workload",
      `${fmt(a.ours32)} vs ${fmt(a.emmett32)} events/s; ${pct(a.ours32VsEmmett32)} (median of the runs' ratios: ${perRun(a)})`,
      met ? 'yes' : '**no**',
    ]),
    '',
    '### Durable appends through the command path (events/s)',
    '',
    ...appendRows(a),
    '',
    `### Replay of ${n(r.replay.events)} events (events/s)`,
    '',
    ...replayRows(r.replay),
    '',
    ...(r.replay.emmettRead < r.replay.events
      ? [
          `Emmett's \`readMessagesBatch\` paging (its consumers' read) returned as few as ` +
            `${n(r.replay.emmettRead)} of the ${n(r.replay.events)} events: it pages by global ` +
            'position but orders by transaction id, so events of transactions that committed out ' +
            'of position order fall between pages (docs/decisions.md, "Order"). ' +
            'Its rate counts the events it returned.',
          '',
        ]
      : []),
    `Each log built first by 64 appends of 10 events in flight (not a measurement): LevelDB ` +
      `${fmt(r.replay.build.level)}, ours ${fmt(r.replay.build.ours)}, Emmett's ` +
      `${fmt(r.replay.build.emmett)} events/s. Reads and replays each run in a fresh process.`,
    '',
  ].join('\n');
};
