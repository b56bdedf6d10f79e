/**
 * The first call after a restart, snapshots on and off (issue 39): bench/history.ts's restart
 * step for one scenario, repeated with `INTENTLOG_SNAPSHOTS` alternating, and once more with a
 * wait between the handshake and the call (the app has then opened: what is left is the call).
 * Needs the built bin (`npm run build`).
 *
 *   PROBE_ONLY=intent PROBE_SCALE=0.2 npm run bench:restart
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startServer, type ServerOptions } from './history-server.js';
import { SCENARIOS } from './history-surfaces.js';

const BIN = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const ONLY = process.env.PROBE_ONLY ?? 'intent';
const SCALE = Number(process.env.PROBE_SCALE ?? 0.2);
const scenario = SCENARIOS.find((s) => s.surface === ONLY)!;
const dir = mkdtempSync(join(tmpdir(), 'intentlog-restart-'));
const options: ServerOptions = {
  bin: BIN,
  dataDir: join(dir, 'data'),
  surface: scenario.surface,
  ...(scenario.roots ? { roots: scenario.roots(dir) } : {}),
  env: scenario.env?.(dir) ?? {},
};
try {
  let server = await startServer(options);
  if (scenario.setup) await scenario.setup(server);
  const acting = scenario.actor ? { ...options, actor: scenario.actor } : options;
  if (scenario.actor) {
    await server.close();
    server = await startServer(acting);
  }
  const ops = await scenario.seed(server, dir, SCALE, () => undefined, 50);
  await server.close();
  const op = ops[0]!;
  console.log(`| restart (${op.name}) | snapshots | first call | second call |`);
  console.log('| --- | --- | --- | --- |');
  let i = 1e6;
  for (const wait of [0, 0, 4000, 4000])
    for (const snapshots of ['on', 'off']) {
      server = await startServer({
        ...acting,
        env: { ...acting.env, INTENTLOG_SNAPSHOTS: snapshots },
      });
      await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      await op.run(server, 'large', i++);
      const t1 = performance.now();
      await op.run(server, 'large', i++);
      const t2 = performance.now();
      await server.close();
      const when = wait ? `${wait / 1000} s after the handshake` : 'right after the handshake';
      console.log(
        `| ${when} | ${snapshots} | ${(t1 - t0).toFixed(0)} ms | ${(t2 - t1).toFixed(0)} ms |`,
      );
    }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
