import type { Command } from 'commander';
import { healthOf, type Health } from '../../app/health.js';
import { appMetrics } from '../../app/metrics.js';
import { action, appCommand, out, withApp, type AppFlags } from '../options.js';

type StatusFlags = AppFlags & { json?: boolean; metrics?: boolean };

const lines = (h: Health): string[] => [
  `status\t${h.status}${h.error ? ` (${h.error})` : ''}`,
  `role\t${h.role}`,
  `store\t${h.store}`,
  `head\t${h.head}`,
  ...(h.write_fault
    ? [`writes\trefused since ${h.write_fault.since}: ${h.write_fault.message}`]
    : []),
  ...h.read_models.map(
    (m) =>
      `read model\t${m.name}\tv${m.version}\tposition ${m.position}\tlag ${m.lag}` +
      (m.error ? `\terror ${m.error}` : ''),
  ),
];

/**
 * `intentlog status`: what `GET /healthz` (and, with `--metrics`, `GET /metrics`) answer, for a
 * data dir, whether or not a server holds it (a follower asks the writer). Exit code 1 when the
 * state is degraded, so that scripts can branch on it.
 */
export const statusCommand = (): Command =>
  appCommand('status', 'role, store, log head and each read model’s lag (as GET /healthz)')
    .option('--json', 'the /healthz JSON')
    .option('--metrics', 'the /metrics Prometheus text instead')
    .action(
      action(async (flags: StatusFlags) => {
        await withApp(flags, async (app) => {
          if (flags.metrics) {
            await out(await appMetrics(app, { store: flags.store, defaults: false }).text());
            return;
          }
          const health = await healthOf(app, flags.store);
          await out(flags.json ? `${JSON.stringify(health)}\n` : `${lines(health).join('\n')}\n`);
          if (health.status !== 'ok') process.exitCode = 1;
        });
      }),
    );
