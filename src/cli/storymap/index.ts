import { Command } from 'commander';
import { storymap } from '../../app/storymap/index.js';
import { findLink, workingRoot, writeLink } from '../../app/storymap/link.js';
import { SYSTEM } from '../../commands/principal.js';
import { action, appCommand, out, withApp, type AppFlags } from '../options.js';
import { storymapJunitCommand } from './junit.js';

type LinkFlags = AppFlags & { root?: string; show?: boolean };

/**
 * `intentlog storymap link <project>`: links a working directory to a story-map project, so
 * the local server (`intentlog mcp --surface storymap-local`) started there acts on it. The
 * project must exist in this data dir with a story map; the link names it by id only.
 */
export const storymapLinkCommand = (): Command =>
  appCommand('link', 'link a directory to a story-map project (writes .intentlog/config.json)')
    .argument('[project]', 'the project id (create_project or list_projects gives it)')
    .option('--root <dir>', 'the directory to link (default: INTENTLOG_ROOT or the current one)')
    .option('--show', 'print the project linked to the directory instead')
    .action(
      action(async (project: string | undefined, flags: LinkFlags) => {
        const root = flags.root ?? workingRoot();
        if (flags.show || project === undefined) {
          const linked = await findLink(root);
          await out(
            `${linked.project_id}${linked.name ? ` ${linked.name}` : ''} (${linked.file})\n`,
          );
          return;
        }
        await withApp(flags, async (app) => {
          const { map } = await storymap(app).reads.map(project, SYSTEM);
          const file = await writeLink(root, {
            project_id: map.project_id,
            name: map.name,
            linked_at: app.clock().toISOString(),
          });
          await out(`linked ${root} to ${map.name} (${map.project_id}): ${file}\n`);
        });
      }),
    );

/** `intentlog storymap …`: the story map's own commands beside `founder`. */
export const storymapCommand = (): Command =>
  new Command('storymap')
    .description(
      'the story map: link a directory to a project for the local server, record CI results',
    )
    .addCommand(storymapLinkCommand())
    .addCommand(storymapJunitCommand());
