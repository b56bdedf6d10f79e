import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callerOf } from '../src/app/missions/index.js';
import { configureMissions, missions } from '../src/app/missions/service.js';
import { SYSTEM } from '../src/commands/principal.js';
import { openIntentlog } from '../src/modules/index.js';
import { fmt, percentile } from './stats.js';

/** The local user, as `intentlog mcp` without --actor calls */
const LOCAL = callerOf(SYSTEM);

/**
 * `hai_check_activity` with 16 concurrent leased sessions, on the durable LevelDB store: each
 * session checks in a closed loop (the next check when the last answered). Also counts the
 * artifact files one change rewrites. Run:
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-build/bench/missions.js
 */
const SESSIONS = 16;
const CHECKS = Number(process.env.CHECKS ?? 200);
const WARMUP = 10;

const main = async () => {
  const root = await mkdtemp(join(tmpdir(), 'intentlog-bench-missions-'));
  const project = join(root, 'project');
  await mkdir(project);
  const app = await openIntentlog({ dataDir: join(root, 'home') });
  configureMissions(app, { ownerDir: join(root, 'owner'), deviceId: 'bench', warnings: [] });
  const service = missions(app);
  const at = { project_path: project };
  try {
    const mission = await service.openMission(
      {
        objective: 'Measure the activity check under load',
        artifact: 'bench/RESULTS.md',
        done_criteria: [{ id: 'C1', description: 'p50 and p99 recorded' }],
        owner: 'bench',
        constraints: {
          project_path: project,
          allowed_paths: ['src'],
          max_parallel_sessions: SESSIONS,
        },
      },
      LOCAL,
    );
    const sessions = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const lease = await service.authorizeSession(
          at,
          {
            mission_id: mission.value.mission_id,
            contract_version: 1,
            agent_identity: `agent-${i}`,
            role: 'implementer',
            contribution: 'load',
            expected_result: 'latency',
            duration_minutes: 480,
            criterion_ids: ['C1'],
            request_id: `bench-${i}`,
          },
          LOCAL,
        );
        return lease.value.session_id;
      }),
    );
    const check = (session_id: string, i: number) =>
      service.checkActivity(
        at,
        {
          session_id,
          activity_step: `step ${i}`,
          criterion_id: 'C1',
          affected_paths: [`src/file-${i % 7}.ts`],
          activity_kind: 'edit',
        },
        LOCAL,
      );
    for (const s of sessions) for (let i = 0; i < WARMUP; i++) await check(s, i);
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      sessions.map(async (s) => {
        for (let i = 0; i < CHECKS; i++) {
          const t = performance.now();
          await check(s, i);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await service.core.artifactsSettled();
    const before = service.core.artifactWrites();
    await service.park(at, { text: 'one inbox item' }, LOCAL);
    await service.core.artifactsSettled();
    const parkWrites = service.core.artifactWrites() - before;
    const report = {
      sessions: SESSIONS,
      checks: latencies.length,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      checks_per_s: latencies.length / seconds,
      artifact_writes_for_one_park: parkWrites,
      load_average: loadavg()[0] ?? 0,
    };
    console.log(
      `hai_check_activity, ${SESSIONS} leased sessions, ${report.checks} checks: p50 ${fmt(report.p50_ms)} ms, ` +
        `p99 ${fmt(report.p99_ms)} ms, ${fmt(report.checks_per_s)} checks/s; one hai_park rewrote ` +
        `${parkWrites} artifact file(s); load average ${(report.load_average ?? 0).toFixed(2)}`,
    );
    console.log(JSON.stringify(report));
  } finally {
    await app.close();
    await rm(root, { recursive: true, force: true });
  }
};

await main();
