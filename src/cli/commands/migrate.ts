import { catalogOf, withProject } from '../../app/app.js';
import { registry } from '../registry.js';
import { Command } from 'commander';
import { describeLocation, migrateLog, type MigratePhase } from '../../app/migrate.js';
import { action, note, out } from '../options.js';
import { progress, type ProgressReporter } from '../progress.js';

type MigrateFlags = { from: string; to: string; project?: string };

/** One bar per phase on stderr, each replacing the last. */
const phases = () => {
  let current: { phase: MigratePhase; bar: ProgressReporter } | undefined;
  return {
    update(phase: MigratePhase, done: number, total: number): void {
      if (current?.phase !== phase) {
        current?.bar.stop();
        current = { phase, bar: progress(phase) };
      }
      current.bar.update(done, total);
    },
    stop: () => current?.bar.stop(),
  };
};

export const migrateCommand = (): Command =>
  new Command('migrate')
    .description(
      'copy the whole log, or one project, between a LevelDB data dir and PostgreSQL (either ' +
        'way): records as stored, content keys of sealed content, chains verified on both sides',
    )
    .requiredOption('--from <store>', 'a data dir or a postgres:// URL to copy from')
    .requiredOption('--to <store>', 'a data dir or a postgres:// URL: empty, or without --project')
    .option('--project <id>', "only this project's events (it must not exist in the target)")
    .action(
      action(async (flags: MigrateFlags) => {
        const bars = phases();
        const report = await migrateLog({
          catalog: catalogOf(withProject(registry().modules)),
          from: flags.from,
          to: flags.to,
          ...(flags.project !== undefined ? { project: flags.project } : {}),
          onProgress: bars.update,
        }).finally(bars.stop);
        const what = flags.project === undefined ? 'the whole log' : `project ${flags.project}`;
        if (report.relocated)
          note(`${what} moved to new global positions in the target: its chain was re-linked`);
        await out(
          `migrated ${what}: ${report.events} events in ${report.projects} projects, ` +
            `${report.keys} content keys (${report.shredded} shredded subjects stay shredded), ` +
            `from ${describeLocation(flags.from)} to ${describeLocation(flags.to)}; ` +
            'chains verified\n',
        );
      }),
    );
