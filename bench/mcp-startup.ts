import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.js';

/**
 * `npm run bench:startup`: medians of 11 of what a host pays to start intentlog, beside bare
 * Node: `--version`, `token create` (alone, and while `mcp` holds the data dir), and `mcp` from
 * spawn to the answer to `initialize` and to the answer to `tools/list` (the full server).
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

/**
 * Spawn `intentlog mcp`, send initialize, initialized and tools/list at once, as hosts do; stop
 * one clock at the answer to initialize and one at the answer to tools/list (the full server).
 */
const mcpStart = (dataDir: string): Promise<{ initialize: number; list: number }> =>
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
const withWriter = async <T>(dataDir: string, body: () => T): Promise<T> => {
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

const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-bench-start-'));
const rows: [string, number[]][] = [
  ['node -e 0', []],
  ['intentlog --version', []],
  ['intentlog token create', []],
  ['intentlog mcp: spawn to initialize answered', []],
  ['intentlog mcp: spawn to tools/list answered', []],
];
for (let i = 0; i < RUNS; i++) {
  rows[0]![1].push(timed(['-e', '0']));
  rows[1]![1].push(timed([main, '--version']));
  rows[2]![1].push(timed([main, 'token', 'create', '--system', '--data-dir', dataDir]));
  const mcp = await mcpStart(dataDir);
  rows[3]![1].push(mcp.initialize);
  rows[4]![1].push(mcp.list);
}
const throughWriter = await withWriter(dataDir, () =>
  Array.from({ length: RUNS }, () =>
    timed([main, 'token', 'create', '--system', '--data-dir', dataDir]),
  ),
);
rows.push(['intentlog token create, `mcp` running (through its writer)', throughWriter]);
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
