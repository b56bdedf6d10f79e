import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './stats.js';

/**
 * `npm run bench:startup`: medians of 11 of what a host pays to start intentlog, beside bare
 * Node: `--version`, `token create` (alone, and while `mcp` holds the data dir), and `mcp` from
 * spawn to the answer to `initialize` and to the answer to `tools/list` (the full server).
 * `STARTUP_BUILDS=dirA,dirB` compares built checkouts run by run, alternating which goes first
 * (an A/B on a busy machine: each round meets both builds under the same load);
 * `STARTUP_RUNS` sets the rounds.
 */
const RUNS = Number(process.env.STARTUP_RUNS) || 11;
const builds = (process.env.STARTUP_BUILDS?.split(',') ?? [process.cwd()]).map((dir) =>
  join(resolve(dir), 'dist/cli/main.js'),
);

const timed = (args: string[]): number => {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr.toString()}`);
  return performance.now() - started;
};

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
};

/**
 * Spawn `intentlog mcp`, send initialize, initialized and tools/list at once, as hosts do; stop
 * one clock at the answer to initialize and one at the answer to tools/list (the full server).
 */
const mcpStart = (main: string, dataDir: string): Promise<{ initialize: number; list: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [main, 'mcp', '--data-dir', dataDir], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let text = '';
    let initialized: number | undefined;
    let list: number | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (initialized === undefined && /"id":1[,}]/.test(text))
        initialized = performance.now() - started;
      if (initialized !== undefined && list === undefined && /"id":2[,}]/.test(text)) {
        list = performance.now() - started;
        child.stdin.end();
      }
    });
    // the next command must not find this one still holding the data dir
    child.on('close', () =>
      list === undefined || initialized === undefined
        ? reject(new Error('mcp ended before answering'))
        : resolve({ initialize: initialized, list }),
    );
    child.on('error', reject);
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  });

/** `token create` while an `intentlog mcp` holds the data dir: through the writer. */
const withWriter = async <T>(main: string, dataDir: string, body: () => T): Promise<T> => {
  const writer = spawn(process.execPath, [main, 'mcp', '--data-dir', dataDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // the writer says so on stderr once its store is open
  await new Promise<void>((resolve) =>
    writer.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (d.includes('serving MCP on stdio')) resolve();
    }),
  );
  try {
    return body();
  } finally {
    writer.stdin.end();
    await new Promise((resolve) => writer.on('close', resolve));
  }
};

const LABELS = [
  'node -e 0',
  'intentlog --version',
  'intentlog token create',
  'intentlog mcp: spawn to initialize answered',
  'intentlog mcp: spawn to tools/list answered',
  'intentlog token create, `mcp` running (through its writer)',
];
/** One round of every measure but the last for a build, in LABELS' order. */
const round = async (main: string, dataDir: string): Promise<number[]> => {
  const bare = timed(['-e', '0']);
  const version = timed([main, '--version']);
  const token = timed([main, 'token', 'create', '--system', '--data-dir', dataDir]);
  const mcp = await mcpStart(main, dataDir);
  return [bare, version, token, mcp.initialize, mcp.list];
};

const scratch = await mkdtemp(join(tmpdir(), 'intentlog-bench-start-'));
const times = builds.map(() => LABELS.map((): number[] => []));
for (let i = 0; i < RUNS; i++) {
  const order = builds.map((_, b) => b);
  if (i % 2 === 1) order.reverse();
  for (const b of order) {
    const measured = await round(builds[b]!, join(scratch, String(b)));
    measured.forEach((ms, row) => times[b]![row]!.push(ms));
  }
}
for (const [b, main] of builds.entries()) {
  const dataDir = join(scratch, String(b));
  times[b]![5]!.push(
    ...(await withWriter(main, dataDir, () =>
      Array.from({ length: RUNS }, () =>
        timed([main, 'token', 'create', '--system', '--data-dir', dataDir]),
      ),
    )),
  );
}
await rm(scratch, { recursive: true, force: true });
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `\n<!-- npm run bench:startup: median of ${RUNS}, ${cpus().length} cores, load ${load}; builds: ${builds.join(', ')} -->`,
);
const medians = times.map((rows) => rows.map(median));
if (builds.length === 1) {
  console.log('| command | median ms | over bare node |\n| --- | --- | --- |');
  for (const [row, label] of LABELS.entries()) {
    const m = medians[0]![row]!;
    console.log(`| ${label} | ${Math.round(m)} | +${Math.round(m - medians[0]![0]!)} |`);
  }
} else {
  const names = builds.map((_, b) => String.fromCharCode(65 + b));
  console.log(
    `| command | ${names.map((n) => `${n} median ms`).join(' | ')} | ${names
      .slice(1)
      .map((n) => `${n} / A`)
      .join(' | ')} |`,
  );
  console.log(`| --- |${' --- |'.repeat(2 * builds.length - 1)}`);
  for (const [row, label] of LABELS.entries()) {
    const ms = medians.map((m) => m[row]!);
    const ratios = ms.slice(1).map((m) => `${((m / ms[0]! - 1) * 100).toFixed(0)}%`);
    console.log(
      `| ${label} | ${ms.map((m) => Math.round(m)).join(' | ')} | ${ratios.join(' | ')} |`,
    );
  }
}
