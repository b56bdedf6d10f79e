/**
 * A cold load of each context's largest aggregate, from its persisted snapshot and from its
 * first event (issue 39): each scenario of the history bench (history-surfaces.ts) grown in
 * process at SNAPSHOT_SCALE (1 = the sizes), then, for the longest stream of each
 * declared fold, the app reopened (every cache empty) ROUNDS times with snapshots on and off
 * (INTENTLOG_SNAPSHOTS=off), timing `aggregateStream` as a command's load does it.
 *
 *   npm run bench:snapshots                       # SNAPSHOT_SCALE=0.2 SNAPSHOT_ROUNDS=5
 *   SNAPSHOT_SCALE=1 SNAPSHOT_ONLY=intent npm run bench:snapshots
 *
 * Prints a Markdown table and one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Snapshots } from '../src/commands/snapshots.js';
import { openIntentlog } from '../src/modules/index.js';
import { SCENARIOS } from './history-surfaces.js';
import { runScenarios } from './in-process-server.js';
import { fmt, median } from './stats.js';

const SCALE = Number(process.env.SNAPSHOT_SCALE ?? 0.2);
const ROUNDS = Number(process.env.SNAPSHOT_ROUNDS ?? 5);
const ONLY = process.env.SNAPSHOT_ONLY?.split(',');

type Row = {
  fold: string;
  events: number;
  snapshotAt: number;
  snapshotKb: number;
  fromSnapshotMs: number;
  fromFirstMs: number;
};

const dir = mkdtempSync(join(tmpdir(), 'intentlog-snapshot-load-'));
const dataDir = join(dir, 'data');
const load0 = loadavg()[0]!;
try {
  let app = await openIntentlog({ dataDir });
  const scenarios = SCENARIOS.filter((s) => !ONLY || ONLY.some((o) => s.surface.startsWith(o)));
  await runScenarios(app, scenarios, dir, SCALE, (n) => process.stderr.write(`  … ${n}\n`));
  await app.log.snapshots!.settled();
  const kept = await app.log.snapshots!.list();
  await app.close();

  const longest = new Map<string, (typeof kept)[number]>();
  for (const k of kept) if ((longest.get(k.name)?.at ?? -1) < k.at) longest.set(k.name, k);
  const rows: Row[] = [];
  for (const [name, snapshot] of longest) {
    const fold = Snapshots.declared().find((d) => d.name === name)!;
    const time = async (snapshots: 'on' | 'off') => {
      const ms: number[] = [];
      let events = 0;
      for (let r = 0; r < ROUNDS; r++) {
        process.env.INTENTLOG_SNAPSHOTS = snapshots;
        app = await openIntentlog({ dataDir });
        const t0 = performance.now();
        const loaded = await app.log.aggregateStream(snapshot.stream, fold as never);
        ms.push(performance.now() - t0);
        events = Number(loaded.currentStreamVersion);
        await app.close();
      }
      return { ms: median(ms), events };
    };
    const on = await time('on');
    const off = await time('off');
    rows.push({
      fold: name,
      events: on.events,
      snapshotAt: snapshot.at,
      snapshotKb: snapshot.bytes / 1024,
      fromSnapshotMs: on.ms,
      fromFirstMs: off.ms,
    });
  }
  console.log(
    '| fold | events | snapshot at | snapshot KB | load from snapshot | from the first event | ratio |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.fold} | ${r.events} | ${r.snapshotAt} | ${fmt(r.snapshotKb)} | ${fmt(r.fromSnapshotMs)} ms | ${fmt(r.fromFirstMs)} ms | ×${(r.fromFirstMs / r.fromSnapshotMs).toFixed(1)} |`,
    );
  console.log(`load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
  console.log(JSON.stringify({ scale: SCALE, rounds: ROUNDS, rows }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
