/**
 * Cost against history, through the product as a client sees it (issue 39): for each surface, one
 * aggregate grown small and one large in the same data dir, through the surface's MCP tools
 * over stdio (`intentlog mcp`, the built bin); then its commands and queries measured on both,
 * interleaved (blocks of BLOCK calls, small and large alternating which goes first), as the
 * server's CPU per call (/proc) and the client's wall time per call; then a restart and the
 * first command on the large aggregate against its warm median; at the end, `projections
 * rebuild` and a full `intentlog log --json` dump of the whole data dir under `/usr/bin/time -v`.
 *
 *   npm run bench:history                    # every surface, the sizes (~15-30 min)
 *   HISTORY_ONLY=intent,missions HISTORY_SCALE=0.1 npm run bench:history   # a quick look
 *
 * HISTORY_ROUNDS (5) blocks per size and op, HISTORY_BLOCK (20) calls a block. Prints a
 * Markdown table and one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, timeV, timed, type Server } from './history-server.js';
import { SCENARIOS, type Op, type Scenario, type Size } from './history-surfaces.js';
import { fmt, median } from './stats.js';

const BIN = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const SCALE = Number(process.env.HISTORY_SCALE ?? 1);
const ROUNDS = Number(process.env.HISTORY_ROUNDS ?? 5);
const BLOCK = Number(process.env.HISTORY_BLOCK ?? 20);
const ONLY = process.env.HISTORY_ONLY?.split(',');
const KEEP = process.env.HISTORY_KEEP === '1';

type Cell = { cpuMs: number; wallMs: number };
type OpResult = { op: string; small: Cell; large: Cell; cpuRatio: number; wallRatio: number };
type Restart = { op: string; firstMs: number; warmMs: number; ratio: number };
type ScenarioResult = {
  scenario: string;
  sizes: Record<Size, number>;
  unit: string;
  seedSeconds: number;
  ops: OpResult[];
  restart: Restart;
};

const log = (line: string) => process.stderr.write(`${line}\n`);

/** ROUNDS blocks of BLOCK calls on each size, alternating which size goes first. */
const measure = async (server: Server, op: Op): Promise<OpResult> => {
  const cpu: Record<Size, number[]> = { small: [], large: [] };
  const wall: Record<Size, number[]> = { small: [], large: [] };
  let i = 0;
  for (const at of ['small', 'large'] as const)
    for (let w = 0; w < 3; w++) await op.run(server, at, i++);
  for (let r = 0; r < ROUNDS; r++) {
    for (const at of r % 2 ? (['large', 'small'] as const) : (['small', 'large'] as const)) {
      const cpu0 = server.cpuMs();
      for (let k = 0; k < BLOCK; k++) wall[at].push(await timed(() => op.run(server, at, i++)));
      cpu[at].push((server.cpuMs() - cpu0) / BLOCK);
    }
  }
  const cell = (at: Size): Cell => ({ cpuMs: median(cpu[at]), wallMs: median(wall[at]) });
  const small = cell('small');
  const large = cell('large');
  return {
    op: op.name,
    small,
    large,
    cpuRatio: large.cpuMs / Math.max(small.cpuMs, 0.01),
    wallRatio: large.wallMs / small.wallMs,
  };
};

const run = async (scenario: Scenario, dir: string): Promise<ScenarioResult> => {
  const options = {
    bin: BIN,
    dataDir: join(dir, 'data'),
    surface: scenario.surface,
    ...(scenario.roots ? { roots: scenario.roots(dir) } : {}),
    ...(scenario.env ? { env: scenario.env(dir) } : {}),
  };
  if (scenario.setup) {
    const local = await startServer(options);
    await scenario.setup(local);
    await local.close();
  }
  const acting = { ...options, ...(scenario.actor ? { actor: scenario.actor } : {}) };
  let server = await startServer(acting);
  const t0 = performance.now();
  log(
    `${scenario.name}: seeding ${scenario.sizes.small} and ${scenario.sizes.large} ${scenario.unit} (x${SCALE})`,
  );
  const budget = 6 + ROUNDS * BLOCK + 11;
  const ops = await scenario.seed(server, dir, SCALE, (n) => log(`  … ${n}`), budget);
  const seedSeconds = (performance.now() - t0) / 1000;
  const results: OpResult[] = [];
  for (const op of ops) {
    results.push(await measure(server, op));
    log(`  ${op.name}: ${JSON.stringify(results.at(-1))}`);
  }
  await server.close();
  server = await startServer(acting);
  const first = ops[0]!;
  const firstMs = await timed(() => first.run(server, 'large', 1e6)).catch((error: unknown) => {
    log(server.stderr());
    throw error;
  });
  const warm: number[] = [];
  for (let k = 0; k < 10; k++)
    warm.push(await timed(() => first.run(server, 'large', 1e6 + k + 1)));
  await server.close();
  const warmMs = median(warm);
  return {
    scenario: scenario.name,
    sizes: {
      small: Math.round(scenario.sizes.small * SCALE),
      large: Math.round(scenario.sizes.large * SCALE),
    },
    unit: scenario.unit,
    seedSeconds,
    ops: results,
    restart: { op: first.name, firstMs, warmMs, ratio: firstMs / warmMs },
  };
};

const table = (results: ScenarioResult[]) => {
  const rows = [
    '| surface: aggregate | call | small → large | CPU/call small | CPU/call large | ratio | wall small | wall large | ratio |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results)
    for (const o of r.ops)
      rows.push(
        `| ${r.scenario} | ${o.op} | ${r.sizes.small} → ${r.sizes.large} ${r.unit} | ${fmt(o.small.cpuMs)} ms | ${fmt(o.large.cpuMs)} ms | ×${o.cpuRatio.toFixed(2)} | ${fmt(o.small.wallMs)} ms | ${fmt(o.large.wallMs)} ms | ×${o.wallRatio.toFixed(2)} |`,
      );
  rows.push(
    '',
    '| after a restart | first call on the large aggregate | warm median | ratio |',
    '| --- | --- | --- | --- |',
  );
  for (const r of results)
    rows.push(
      `| ${r.scenario}: ${r.restart.op} | ${fmt(r.restart.firstMs)} ms | ${fmt(r.restart.warmMs)} ms | ×${r.restart.ratio.toFixed(2)} |`,
    );
  return rows.join('\n');
};

const dir = mkdtempSync(join(tmpdir(), 'intentlog-history-'));
const load0 = loadavg()[0]!;
try {
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS.filter(
    (s) => !ONLY || ONLY.some((o) => s.name.includes(o) || s.surface === o),
  ))
    results.push(await run(scenario, dir));
  const dataDir = join(dir, 'data');
  const rebuild = timeV(BIN, ['projections', 'rebuild', '--data-dir', dataDir]);
  const dump = timeV(BIN, ['log', '--json', '--data-dir', dataDir]);
  console.log(table(results));
  console.log(
    `\nprojections rebuild: ${rebuild.seconds.toFixed(2)} s, max RSS ${fmt(rebuild.maxRssMb)} MB (exit ${rebuild.exit}); ` +
      `intentlog log --json: ${dump.seconds.toFixed(2)} s, max RSS ${fmt(dump.maxRssMb)} MB; ` +
      `rebuild / dump ×${(rebuild.seconds / dump.seconds).toFixed(2)}; load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    JSON.stringify({ scale: SCALE, rounds: ROUNDS, block: BLOCK, results, rebuild, dump }),
  );
} finally {
  if (KEEP) log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
