import type { Command } from 'commander';
import { eachPage, eventSource, jsonLine } from '../event-lines.js';
import { action, appCommand, note, out, position, withApp, type AppFlags } from '../options.js';

type ExportFlags = AppFlags & { project: string; since: number };

export const exportCommand = (): Command =>
  appCommand('export', "write one project's events as NDJSON (sync_since envelopes) to stdout")
    .requiredOption('--project <id>', 'the project to export')
    .option('--since <cursor>', 'start after this project cursor', position, 0)
    .action(
      action(async (flags: ExportFlags) => {
        await withApp(flags, async (app) => {
          let count = 0;
          const source = eventSource(app.log, flags.project);
          const last = await eachPage(source, flags.since, async (events) => {
            count += events.length;
            await out(events.map(jsonLine).join(''));
          });
          note(`exported ${count} events of ${flags.project} (last cursor ${last})`);
        });
      }),
    );
