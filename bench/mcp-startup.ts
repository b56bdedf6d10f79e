import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.js';

/**
 * `npm run bench:startup`: medians of 11 of what a host pays to start intentlog, beside bare
 * Node: `--version`, `token create`, and `mcp` from spawn to the answer to `initialize`.
 */
const RUNS = 11;
const main = join(process.cwd(), 'dist/cli/main.js');

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

/** Spawn `intentlog mcp`, send initialize, stop the clock at the first line of the answer. */
const mcpInitialize = (dataDir: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [main, 'mcp', '--data-dir', dataDir], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdout.once('data', () => {
      resolve(performance.now() - started);
      child.stdin.end();
    });
    child.on('error', reject);
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });

const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-bench-start-'));
const rows: [string, number[]][] = [
  ['node -e 0', []],
  ['intentlog --version', []],
  ['intentlog token create', []],
  ['intentlog mcp: spawn to initialize answered', []],
];
for (let i = 0; i < RUNS; i++) {
  rows[0]![1].push(timed(['-e', '0']));
  rows[1]![1].push(timed([main, '--version']));
  rows[2]![1].push(timed([main, 'token', 'create', '--system', '--data-dir', dataDir]));
  rows[3]![1].push(await mcpInitialize(dataDir));
  await new Promise((resolve) => setTimeout(resolve, 300)); // the mcp child lets go of the lock
}
await rm(dataDir, { recursive: true, force: true });
const bare = median(rows[0]![1]);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `\n<!-- npm run bench:startup: median of ${RUNS}, ${cpus().length} cores, load ${load} -->`,
);
console.log('| command | median ms | over bare node |\n| --- | --- | --- |');
for (const [label, times] of rows) {
  const m = median(times);
  console.log(`| ${label} | ${Math.round(m)} | +${Math.round(m - bare)} |`);
}
