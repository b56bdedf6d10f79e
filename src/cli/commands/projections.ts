import { Command } from 'commander';
import { action, appCommand, note, out, withApp, type AppFlags } from '../options.js';
import { progress } from '../progress.js';

const rebuild = (): Command =>
  appCommand('rebuild', 'rebuild read models from the log (all of them when none is named)')
    .argument('[name...]', 'read models to rebuild (see `projections status`)')
    .action(
      action(async (names: string[], flags: AppFlags) => {
        await withApp(flags, async (app) => {
          const bar = progress('rebuilding');
          const started = Date.now();
          try {
            await app.projections.rebuild(names, (done, total) => bar.update(done, total));
          } finally {
            bar.stop();
          }
          const which = names.length > 0 ? names.join(', ') : 'all read models';
          note(`rebuilt ${which} up to ${await app.log.head()} in ${Date.now() - started} ms`);
        });
      }),
    );

const status = (): Command =>
  appCommand('status', 'show each read model: version, position folded, lag behind the log')
    .option('--json', 'one JSON object per line')
    .action(
      action(async (flags: AppFlags & { json?: boolean }) => {
        await withApp(flags, async (app) => {
          const rows = await app.projections.status();
          const lines = rows.map((r) =>
            flags.json
              ? JSON.stringify({ ...r, lag: r.head - r.position })
              : `${r.name}\tv${r.version}\tposition ${r.position}/${r.head}\tlag ${r.head - r.position}`,
          );
          await out(lines.map((l) => `${l}\n`).join(''));
        });
      }),
    );

export const projectionsCommand = (): Command =>
  new Command('projections')
    .description('inspect and rebuild the read models')
    .addCommand(rebuild())
    .addCommand(status());
