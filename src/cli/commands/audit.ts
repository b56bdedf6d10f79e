import { Command } from 'commander';
import { catalogOf, defaultDataDir, withProject } from '../../app/app.js';
import { auditRepair } from '../../app/audit-repair.js';
import { auditVerify, describeFinding } from '../../app/audit.js';
import { action, appCommand, note, out, withApp, type AppFlags } from '../options.js';
import { progress } from '../progress.js';
import { registry } from '../registry.js';

const verify = (): Command =>
  appCommand(
    'verify',
    "check every project's hash chain, every event's schema, and that replaying the log " +
      'reproduces the stored read models; exits 1 naming the first bad event',
  )
    .option('--json', 'print the report as JSON')
    .action(
      action(async (flags: AppFlags & { json?: boolean }) => {
        await withApp(
          flags,
          async (app) => {
            const bar = progress('verifying');
            const report = await auditVerify({
              log: app.log,
              catalog: app.catalog,
              projectors: app.projectors,
              contexts: app.audits.map((a) => () => a.run(app)),
              waitFor: app.waitFor,
              onProgress: (done, total) => bar.update(done, total),
            }).finally(() => bar.stop());
            if (flags.json) await out(`${JSON.stringify(report)}\n`);
            else if (report.ok)
              await out(
                `ok: ${report.events} events in ${report.projects} projects, ` +
                  `${report.modelKeys} read-model keys reproduced by replay\n`,
              );
            if (report.finding) {
              note(`audit failed: ${describeFinding(report.finding)}`);
              process.exitCode = 1;
            }
          },
          'read',
        );
      }),
    );

type RepairFlags = AppFlags & { into: string };

const repair = (): Command =>
  appCommand(
    'repair',
    'copy what is intact of a store that failed its checks into a new data dir (--into): ' +
      'records in position order up to the first missing, unreadable or unchained one; the ' +
      'damaged data dir is only read. Exits 2 when records had to be left behind',
  )
    .requiredOption('--into <dir>', 'a new data dir to copy into (must not hold a log)')
    .action(
      action(async (flags: RepairFlags) => {
        const from = flags.dataDir ?? defaultDataDir();
        const bar = progress('copying');
        const report = await auditRepair({
          from,
          into: flags.into,
          catalog: catalogOf(withProject(registry().modules)),
          onProgress: (done, total) => bar.update(done, total),
        }).finally(() => bar.stop());
        await out(
          `copied ${report.copied} of ${report.sourceHead} records into ${flags.into}; ` +
            `${from} was not changed\n`,
        );
        if (report.stopped) {
          note(
            `not copied: positions ${report.stopped.position}..${report.sourceHead} ` +
              `(at ${report.stopped.position}: ${report.stopped.reason}). They stay in ${from}; ` +
              'restore them from a backup or another replica if you have one',
          );
          process.exitCode = 2;
        }
        note(
          `check the copy:  intentlog audit verify --data-dir ${flags.into}  then serve from it ` +
            `(keep ${from} as evidence)`,
        );
      }),
    );

export const auditCommand = (): Command =>
  new Command('audit')
    .description('verify the log and its read models; repair a damaged store into a new one')
    .addCommand(verify())
    .addCommand(repair());
