import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inChild, resultsFile } from './child.js';
import type { CompareBuildArgs } from './child/compare-build.js';
import type { CompareReplayArgs } from './child/compare-replay.js';
import { commandPathLevelDb } from './appends.js';
import { commandPathEmmettPostgres, commandPathPostgres } from './pg-appends.js';
import { pgReport, type PgResults } from './pg-report.js';
import { median, perSecond } from './stats.js';

/**
 * `npm run bench:pg [-- --quick] [-- --events N]`: the kernel's append and replay workloads on
 * our PostgreSQL store, beside LevelDB and Emmett's own PostgreSQL store on the same database,
 * in one run. Prints the results and writes them as the last section of bench/RESULTS.md
 * ("PostgreSQL"). `--events` sets the replay size (default 1,000,000, as the kernel's).
 * INTENTLOG_BENCH_PG names the server (default postgres://postgres@127.0.0.1:5432/postgres); the
 * run creates a database of its own there and drops it at the end.
 */
const quick = process.argv.includes('--quick');
const eventsFlag = process.argv.indexOf('--events');
const size = {
  ...(quick
    ? { perWriter1: 200, perWriter32: 25, replay: 50_000 }
    : { perWriter1: 2000, perWriter32: 250, replay: 1_000_000 }),
  ...(eventsFlag > 0 ? { replay: Number(process.argv[eventsFlag + 1]) } : {}),
};
if (!Number.isSafeInteger(size.replay) || size.replay < 1000)
  throw new TypeError('--events takes a number of events to replay (at least 1000)');
const RUNS = 3;
const admin = process.env.INTENTLOG_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const note = (message: string) => process.stderr.write(`bench:pg: ${message}\n`);
const loads: number[] = [];
const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
  loads.push(loadavg()[0]!);
  note(`${what} (load ${loadavg()[0]!.toFixed(1)}) …`);
  return fn();
};

const withDatabase = async <T>(body: (url: string) => Promise<T>): Promise<T> => {
  const name = `intentlog_bench_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    return await body(url.toString());
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
};

const schemaUrl = (database: string, schema: string): string => {
  const url = new URL(database);
  url.searchParams.set('schema', schema);
  return url.toString();
};

type AppendKey = 'level1' | 'ours1' | 'emmett1' | 'level32' | 'ours32' | 'emmett32';

/** Every append measurement once per run, interleaved, so each run's figures share neighbours. */
const appends = async (database: string) => {
  const runs: Record<AppendKey, number>[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const ours = (key: string) => schemaUrl(database, `append_${i}_${key}`);
    const measures: [AppendKey, string, () => Promise<number>][] = [
      ['level1', 'LevelDB, 1 writer', () => commandPathLevelDb(1, size.perWriter1)],
      [
        'ours1',
        'our PostgreSQL store, 1 writer',
        () => commandPathPostgres(ours('1'), 1, size.perWriter1),
      ],
      [
        'emmett1',
        "Emmett's PostgreSQL store, 1 writer",
        () => commandPathEmmettPostgres(database, 1, size.perWriter1),
      ],
      ['level32', 'LevelDB, 32 writers', () => commandPathLevelDb(32, size.perWriter32)],
      [
        'ours32',
        'our PostgreSQL store, 32 writers',
        () => commandPathPostgres(ours('32'), 32, size.perWriter32),
      ],
      [
        'emmett32',
        "Emmett's PostgreSQL store, 32 writers",
        () => commandPathEmmettPostgres(database, 32, size.perWriter32),
      ],
    ];
    const run = {} as Record<AppendKey, number>;
    for (const [key, what, measure] of measures)
      run[key] = await step(`${what}, run ${i}`, measure);
    runs.push(run);
  }
  const rate = (k: AppendKey) => median(runs.map((r) => r[k]));
  return {
    level1: rate('level1'),
    ours1: rate('ours1'),
    emmett1: rate('emmett1'),
    level32: rate('level32'),
    ours32: rate('ours32'),
    emmett32: rate('emmett32'),
    /** the target: the median of each run's own ratio */
    ours32VsEmmett32: median(runs.map((r) => r.ours32 / r.emmett32)),
    runs,
  };
};

type Replay = { events: number; ms: number };

const child = (script: string, args: CompareBuildArgs | CompareReplayArgs) =>
  inChild<Replay>(script, args);

/** The three replay fixtures, each of `size.replay` events; their build rates for the record. */
const buildFixtures = async (database: string, dir: string) => {
  const ours = schemaUrl(database, 'replay');
  const build = (what: string, target: CompareBuildArgs['target'], at: string) =>
    step(`building ${what} of ${size.replay.toLocaleString('en-US')} events`, () =>
      child('compare-build', { target, at, events: size.replay }),
    );
  const built = {
    level: await build('the LevelDB log', 'level', dir),
    ours: await build('our PostgreSQL log', 'ours', ours),
    emmett: await build("Emmett's PostgreSQL log", 'emmett', database),
  };
  return { ours, built };
};

type ReplayKey = 'levelRaw' | 'levelEngine' | 'oursRaw' | 'oursEngine' | 'emmettRaw';

const replays = async (database: string, dir: string) => {
  const { ours, built } = await buildFixtures(database, dir);
  const measures: [ReplayKey, string, CompareReplayArgs][] = [
    ['levelRaw', 'LevelDB iterate + decode', { at: dir, mode: 'level-raw' }],
    ['levelEngine', 'LevelDB through every projector', { at: dir, mode: 'level-engine' }],
    ['oursRaw', 'our PostgreSQL readRaw', { at: ours, mode: 'ours-raw' }],
    ['oursEngine', 'our PostgreSQL through every projector', { at: ours, mode: 'ours-engine' }],
    ['emmettRaw', "Emmett's PostgreSQL readMessagesBatch", { at: database, mode: 'emmett-raw' }],
  ];
  const runs: Record<ReplayKey, number>[] = [];
  let emmettRead = size.replay;
  for (let i = 1; i <= RUNS; i++) {
    const run = {} as Record<ReplayKey, number>;
    for (const [key, what, args] of measures) {
      const r = await step(`${what}, run ${i}`, () => child('compare-replay', args));
      // Emmett 0.42.0's pager can skip events (docs/decisions.md): counted, not fatal
      if (key === 'emmettRaw') emmettRead = Math.min(emmettRead, r.events);
      else if (r.events !== size.replay) throw new Error(`${what} read ${r.events} events`);
      run[key] = perSecond(r.events, r.ms);
    }
    runs.push(run);
  }
  const rate = (k: ReplayKey) => median(runs.map((r) => r[k]));
  const building = (b: Replay) => perSecond(b.events, b.ms);
  return {
    events: size.replay,
    emmettRead,
    rates: Object.fromEntries(measures.map(([k]) => [k, rate(k)])) as Record<ReplayKey, number>,
    build: {
      level: building(built.level),
      ours: building(built.ours),
      emmett: building(built.emmett),
    },
  };
};

const serverInfo = async (database: string): Promise<string> => {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const show = async (what: string) =>
      (await client.query<Record<string, string>>(`SHOW ${what}`)).rows[0]![what];
    return `PostgreSQL ${await show('server_version')} (fsync ${await show('fsync')}, synchronous_commit ${await show('synchronous_commit')})`;
  } finally {
    await client.end();
  }
};

/** Replaces the "## PostgreSQL" section at the end of RESULTS.md, or adds it there. */
const writeSection = async (section: string): Promise<void> => {
  const file = resultsFile;
  const text = await readFile(file, 'utf8').catch(() => '');
  const at = text.search(/^## PostgreSQL$/m);
  const before = (at >= 0 ? text.slice(0, at) : text).trimEnd();
  await writeFile(file, `${before ? `${before}\n\n` : ''}${section}`);
};

const main = async (): Promise<void> => {
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-bench-pg-'));
  try {
    const results = await withDatabase(async (database): Promise<PgResults> => ({
      quick,
      command: `npm run bench:pg${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      server: await serverInfo(database),
      appends: await appends(database),
      replay: await replays(database, join(dir, 'level')),
      sizes: size,
      minutes: 0,
      load: { start: loads[0] ?? loadavg()[0]!, end: loadavg()[0]!, min: 0, max: 0 },
    }));
    results.minutes = (Date.now() - started) / 60_000;
    results.load.min = Math.min(...loads);
    results.load.max = Math.max(...loads);
    const section = pgReport(results);
    process.stdout.write(section);
    if (!quick) await writeSection(section);
    else note('--quick: bench/RESULTS.md left as it is (it records the full run)');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
