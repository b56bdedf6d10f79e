import { Command, Option } from 'commander';
import {
  defaultOwnerDir,
  pendingCodes,
  shownText,
  type PendingCode,
} from '../../app/missions/owner-channel.js';
import { SYSTEM } from '../../commands/principal.js';
import { action, appCommand, cliId, note, out, withApp, type AppFlags } from '../options.js';

/**
 * `intentlog owner code`: shows the person at the keyboard the pending one-time codes of the
 * missions owner gate, with what each approves. It reads only the owner directory, never the
 * log, and an agent confined away from that directory cannot run it usefully.
 */
/** One pending code: which project (and where), and what exactly it approves. */
const shown = (c: PendingCode): string => {
  const where = c.project_root ? ` at ${c.project_root}` : '';
  const head = `${c.code}  ${c.operation} in project ${c.project_id}${where} (challenge ${c.challenge_id}, expires ${c.expires_at})\n`;
  if (!c.approves) return `${head}  approves: ${JSON.stringify(c.change)}\n`;
  const text = shownText(c.approves.text).replace(/\n/g, '\n    ');
  return `${head}  approves (${c.approves.sha256}):\n    ${text}\n`;
};

export const ownerCommand = (): Command => {
  const owner = new Command('owner').description('the owner side of the missions owner gate');
  owner
    .command('code')
    .description('print the pending owner codes and the change each one approves')
    .addOption(
      new Option('--owner-dir <dir>', 'owner directory (default: ~/.intentlog-owner)').env(
        'INTENTLOG_OWNER_DIR',
      ),
    )
    .option('--json', 'print JSON lines')
    .action(
      action(async (flags: { ownerDir?: string; json?: boolean }) => {
        const { codes, skipped } = await pendingCodes(
          flags.ownerDir ?? defaultOwnerDir(),
          new Date().toISOString(),
        );
        for (const s of skipped)
          note(`intentlog: skipped ${s.file} in the owner directory: ${s.reason}`);
        if (flags.json) {
          for (const c of codes) await out(`${JSON.stringify(c)}\n`);
          return;
        }
        if (codes.length === 0) return out('no pending owner code\n');
        for (const c of codes) await out(shown(c));
      }),
    );
  owner.addCommand(
    appCommand(
      'grant',
      'give an actor a missions role in a project: member (works on its missions) or owner (also passes the owner gate)',
    )
      .argument('<project_id>', 'the project')
      .argument('<actor_id>', 'the actor (its bearer token, or `mcp --actor`)')
      .addOption(
        new Option('--role <role>', 'the missions role')
          .choices(['member', 'owner'])
          .default('member'),
      )
      .action(
        action(async (project_id: string, actor_id: string, flags: AppFlags & { role: string }) =>
          withApp(flags, async (app) => {
            // the person at the keyboard is the local SYSTEM principal
            await app.projects.registerActor(
              {
                project_id,
                actor_id: cliId('an actor id', actor_id),
                role: flags.role,
                surface: 'missions',
              },
              { principal: SYSTEM },
            );
            await out(`${actor_id} is a missions ${flags.role} of ${project_id}\n`);
          }),
        ),
      ),
  );
  return owner;
};
