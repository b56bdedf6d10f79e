import { Command } from 'commander';
import { auditVerify, describeFinding } from '../../app/audit.js';
import { action, appCommand, note, out, withApp, type AppFlags } from '../options.js';
import { progress } from '../progress.js';

const verify = (): Command =>
  appCommand(
    'verify',
    "check every project's hash chain, every event's schema, and that replaying the log " +
      'reproduces the stored read models; exits 1 naming the first bad event',
  )
    .option('--json', 'print the report as JSON')
    .action(
      action(async (flags: AppFlags & { json?: boolean }) => {
        await withApp(flags, async (app) => {
          const bar = progress('verifying');
          const report = await auditVerify({
            log: app.log,
            catalog: app.catalog,
            projectors: app.projectors,
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
        });
      }),
    );

export const auditCommand = (): Command =>
  new Command('audit').description('verify the log and its read models').addCommand(verify());
