import type { Command } from 'commander';
import { canonicalJson, type StoredRecord } from '../../events/index.js';
import { eachPage, eventSource, jsonLine } from '../event-lines.js';
import { action, appCommand, note, out, position, withApp, type AppFlags } from '../options.js';

type ExportFlags = AppFlags & { project?: string; since: number; raw?: boolean };

const PAGE = 1000;

/**
 * The stored records, exactly what the hash chain covers, one canonical JSON object per line
 * (docs/hash-chain.md): an outside auditor verifies them with standard tools, no intentlog.
 * In global order, which keeps each project's cursor order.
 */
const exportRaw = async (
  read: (after: number) => Promise<StoredRecord[]>,
  projectId: string | undefined,
  since: number,
): Promise<number> => {
  let count = 0;
  for (let after = since; ;) {
    const records = await read(after);
    const mine =
      projectId === undefined ? records : records.filter((r) => r.project_id === projectId);
    count += mine.length;
    await out(mine.map((r) => `${canonicalJson(r)}\n`).join(''));
    if (records.length < PAGE) return count;
    after = records.at(-1)!.global_position;
  }
};

export const exportCommand = (): Command =>
  appCommand(
    'export',
    "write one project's events as NDJSON (sync_since envelopes) to stdout; --raw: the stored " +
      'records the hash chain covers (docs/hash-chain.md)',
  )
    .option('--project <id>', 'the project to export (required without --raw)')
    .option(
      '--since <n>',
      'start after this project cursor (global position with --raw)',
      position,
      0,
    )
    .option('--raw', 'the stored records as hashed, in global order, for an outside audit')
    .action(
      action(async (flags: ExportFlags) => {
        const project = flags.project;
        if (!flags.raw && project === undefined)
          throw new TypeError('name the project to export: --project <id> (or --raw for all)');
        await withApp(
          flags,
          async (app) => {
            if (flags.raw) {
              const read = (after: number) => app.log.readRaw({ after, limit: PAGE });
              const count = await exportRaw(read, project, flags.since);
              return note(`exported ${count} stored records`);
            }
            let count = 0;
            const source = eventSource(app.log, project);
            const last = await eachPage(source, flags.since, async (events) => {
              count += events.length;
              await out(events.map(jsonLine).join(''));
            });
            note(`exported ${count} events of ${project} (last cursor ${last})`);
          },
          'read',
        );
      }),
    );
