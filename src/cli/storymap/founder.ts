import { Command } from 'commander';
import type { App } from '../../app/app.js';
import { storymap } from '../../app/storymap/index.js';
import { founderTodo } from '../../app/storymap/context.js';
import { founderRootCommand, founderRunCommand } from './founder-run.js';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import { action, appCommand, out, withApp, type AppFlags } from '../options.js';
import { founderBuildCommands } from './founder-build.js';

/**
 * The founder's side of the story map, which the contract leaves to "a person in the app":
 * mark stories ready_for_dev and approved, set the build sequence, print the to-do list.
 * Every change goes through the same deciders as the tools, so it is an event like any other.
 * The local user is the owner of every project on this machine; `--as` acts as a registered
 * actor instead (refused unless it is the project's owner).
 */
export type FounderFlags = AppFlags & { as?: string; json?: boolean };

const principalOf = (flags: FounderFlags): Principal =>
  flags.as ? { kind: 'actor', actor_id: flags.as } : SYSTEM;

export const leaf = (name: string, description: string) =>
  appCommand(name, description).option('--as <actor>', 'act as this registered actor (an owner)');

/** Commander calls an action with the positional arguments, then the options, then itself. */
export const run = <F extends FounderFlags = FounderFlags>(
  body: (app: App, principal: Principal, args: string[], flags: F) => Promise<string>,
) =>
  action(async (...args: unknown[]) => {
    const flags = args[args.length - 2] as F;
    const positional = args.slice(0, -2) as string[];
    await withApp(flags, async (app) =>
      out(`${await body(app, principalOf(flags), positional, flags)}\n`),
    );
  });

const mark = (to: 'ready_for_dev' | 'approved') =>
  leaf(
    to === 'approved' ? 'approve' : 'ready',
    to === 'approved' ? 'approve a built (done) story' : 'mark a story ready_for_dev',
  )
    .argument('<project>', 'the project id')
    .argument('<story>', 'a key like PB-42, a UUID or a UUID prefix')
    .action(
      run(async (app, principal, [project_id, story_id]) => {
        const o = await storymap(app).founderMark(
          { project_id: project_id!, story_id: story_id!, to },
          principal,
        );
        return `${o.result.key} is ${o.result.status}`;
      }),
    );

export const founderCommand = (): Command => {
  const founder = new Command('founder')
    .description(
      "the founder's side of the story map: ready, approve, sequence, todo, plan, blocker, handoff, release",
    )
    .addCommand(mark('ready_for_dev'))
    .addCommand(mark('approved'))
    .addCommand(
      leaf('sequence', "set a story's place in the build order (none clears it)")
        .argument('<project>', 'the project id')
        .argument('<story>', 'a key like PB-42, a UUID or a UUID prefix')
        .argument('<n>', 'the build sequence from 1, or none')
        .action(
          run(async (app, principal, [project_id, story_id, n]) => {
            const build_sequence = n === 'none' ? null : Number(n);
            await storymap(app).setBuildSequence(
              { project_id: project_id!, story_id: story_id!, build_sequence },
              principal,
            );
            return `${story_id} ${build_sequence === null ? 'has no build sequence' : `is #${build_sequence}`}`;
          }),
        ),
    )
    .addCommand(
      leaf('todo', 'print what waits on the founder in a project')
        .argument('<project>', 'the project id')
        .option('--json', 'print the list as JSON')
        .action(
          run(async (app, principal, [project_id], flags) => {
            const todo = await founderTodo(storymap(app).reads, project_id!, principal);
            if (flags.json) return JSON.stringify(todo);
            if (todo.items.length === 0) return 'Nothing waits on you.';
            return todo.items
              .map((i) => `- [${i.kind}] ${i.story_key ?? ''} ${i.detail}: ${i.action}`)
              .join('\n');
          }),
        ),
    )
    .addCommand(founderRunCommand())
    .addCommand(founderRootCommand());
  for (const command of founderBuildCommands()) founder.addCommand(command);
  return founder;
};
