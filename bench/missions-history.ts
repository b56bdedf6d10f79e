/**
 * Missions at small and large history, side by side in one run (issue 39): a lease, hai_status,
 * hai_get_next_step, hai_park and hai_checkpoint on a desk of 20 and of 1,500 leases, through
 * the services on the durable LevelDB store. A call's figures are the process CPU (user +
 * system) and the wall time from the call until every read model has folded what it appended,
 * and the read-model bytes it wrote (keys plus msgpack values), medians of CALLS calls, small
 * and large interleaved; the artifact files are written by their sink afterwards, off the call.
 * Then the first lease after a restart (the desk's fold cache cold), on each desk.
 *
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-build/bench/missions-history.js
 *
 * LEASES (1500), CALLS (25) change the sizes.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { App } from '../src/app/app.js';
import { callerOf } from '../src/app/missions/index.js';
import { configureMissions, missions } from '../src/app/missions/service.js';
import { SYSTEM } from '../src/commands/principal.js';
import { openIntentlog } from '../src/modules/index.js';
import {
  compareSizes,
  countWrites,
  step,
  type Figures,
  type Row,
  type Size,
} from './history-harness.js';
import { fmt, median } from './stats.js';

const LEASES = Number(process.env.LEASES ?? 1500);
const CALLS = Number(process.env.CALLS ?? 25);
const SMALL = 20;
/** a stop revokes the live leases every this many, as a working day would */
const PER_DAY = 15;
const LOCAL = callerOf(SYSTEM);

type Desk = { project_path: string; mission_id: string; live: number; stops: number };

const load0 = loadavg();
const root = await mkdtemp(join(tmpdir(), 'intentlog-bench-missions-history-'));
const desks = {} as Record<Size, Desk>;

const open = async (): Promise<App> => {
  const app = await openIntentlog({ dataDir: join(root, 'data') });
  configureMissions(app, { ownerDir: join(root, 'owner'), deviceId: 'bench', warnings: [] });
  countWrites(app);
  return app;
};

const lease = async (app: App, size: Size, i: number) => {
  const m = missions(app);
  const desk = desks[size];
  const at = { project_path: desk.project_path };
  if (desk.live >= PER_DAY) {
    await m.stop(
      at,
      { day: `day-${++desk.stops}`, loop_closed: true, clearer: 'c', agency_gained: 'a' },
      LOCAL,
    );
    desk.live = 0;
  }
  desk.live++;
  return m.authorizeSession(
    at,
    {
      mission_id: desk.mission_id,
      contract_version: 1,
      agent_identity: `agent-${i}`,
      role: 'implementer',
      contribution: 'a part',
      expected_result: 'a file',
      duration_minutes: 480,
      criterion_ids: ['C1'],
    },
    LOCAL,
  );
};

const rows = new Map<string, Row>();

const t0 = performance.now();
let app = await open();
for (const [size, n] of [
  ['small', SMALL],
  ['large', LEASES],
] as const) {
  const project_path = join(root, `desk-${size}`);
  await mkdir(join(project_path, 'src'), { recursive: true });
  const opened = await missions(app).openMission(
    {
      objective: `Grow the ${size} desk to measure its leases`,
      artifact: 'src/a.ts',
      done_criteria: [{ id: 'C1', description: 'src/a.ts exists' }],
      owner: 'bench',
      constraints: { project_path, allowed_paths: ['src'], max_parallel_sessions: 16 },
    },
    LOCAL,
  );
  desks[size] = { project_path, mission_id: opened.value.mission_id, live: 0, stops: 0 };
  for (let i = 0; i < n; i++) await lease(app, size, i);
}
await missions(app).core.artifactsSettled(60_000);
const built = (performance.now() - t0) / 1000;

const steps: [string, (size: Size, i: number) => Promise<unknown>][] = [
  ['a lease (hai_authorize_session)', (size, i) => lease(app, size, 100_000 + i)],
  ['hai_status', (size) => missions(app).status({ project_path: desks[size].project_path }, LOCAL)],
  [
    'hai_get_next_step',
    (size) => missions(app).getNextStep({ project_path: desks[size].project_path }, LOCAL),
  ],
  [
    'hai_park',
    (size, i) =>
      missions(app).park({ project_path: desks[size].project_path }, { text: `idea ${i}` }, LOCAL),
  ],
  [
    'hai_checkpoint',
    (size) => missions(app).checkpoint({ project_path: desks[size].project_path }, 'here', LOCAL),
  ],
];
await compareSizes(rows, () => app, CALLS, ...steps.map(([name, call]) => step(name, '', call)));
const settled = performance.now();
await missions(app).core.artifactsSettled(60_000);
const sinkMs = performance.now() - settled;

// the first lease after a restart: the desk's fold from its snapshot (or its first event)
const first = {} as Record<Size, number>;
for (const size of ['small', 'large'] as const) {
  await app.close();
  app = await open();
  const t = performance.now();
  await lease(app, size, 200_000);
  first[size] = performance.now() - t;
}
await app.close();
await rm(root, { recursive: true, force: true });

const load1 = loadavg();
const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const cell = (f: Figures) =>
  `${fmt(median(f.cpu))} / ${fmt(median(f.wall))} ms, ${fmt(median(f.bytes))} B`;
console.log(
  `missions at small and large history: desks of ${SMALL} and ${LEASES} leases (a stop every ` +
    `${PER_DAY}); ${CALLS} calls each, medians; history built in ${fmt(built)} s; load average ` +
    `${load0[0]!.toFixed(2)} → ${load1[0]!.toFixed(2)}\n`,
);
console.log(
  line([
    'call',
    'small: CPU / wall, bytes written',
    'large: CPU / wall, bytes written',
    'CPU ratio',
  ]),
);
console.log(line(['---', '---', '---', '---']));
for (const [name, { small, large }] of rows)
  console.log(
    line([name, cell(small), cell(large), (median(large.cpu) / median(small.cpu)).toFixed(2)]),
  );
console.log(
  line([
    'first lease after a restart (wall)',
    `${fmt(first.small)} ms`,
    `${fmt(first.large)} ms`,
    (first.large / first.small).toFixed(2),
  ]),
);
console.log(`\nthe artifact sink caught up ${fmt(sinkMs)} ms after the last measured call`);
