import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { getRun } from '../../app/storymap/run-views.js';
import { runs } from '../../app/storymap/runs.js';
import { bindRepoRoot } from '../../app/storymap/root.js';
import { invalidArgument } from '../../commands/errors.js';
import { leaf, run, type FounderFlags } from './founder.js';

/**
 * `intentlog founder run …`: the founder creates build runs and approves, pauses, resumes,
 * stops or cancels them; agents only read them (get_run) and take their stories (next_in_run).
 */
type RunFlags = FounderFlags & {
  title?: string;
  concurrency?: string;
  onFailure?: 'stop' | 'continue';
  reason?: string;
};

const concurrencyOf = (text: string | undefined): number => {
  const n = Number(text ?? '1');
  if (!Number.isInteger(n))
    throw invalidArgument('--concurrency must be a whole number', { concurrency: text });
  return n;
};

const create = () =>
  leaf('create', 'create a draft run of stories (a person approves it before it starts)')
    .argument('<project>', 'the project id')
    .argument('<stories...>', 'keys like PB-42, UUIDs or UUID prefixes')
    .requiredOption('--title <title>', "the run's title")
    .option('--concurrency <n>', 'how many stories may be in progress at once', '1')
    .addOption(
      new Option('--on-failure <what>', 'when a story needs rework: stop the run or continue')
        .choices(['stop', 'continue'])
        .default('stop'),
    )
    .action(
      run(async (app, principal, args, flags: RunFlags) => {
        // commander hands a variadic argument over as one array
        const [project_id, ...stories] = args.flat();
        const o = await runs(app).create(
          {
            project_id: project_id!,
            title: flags.title ?? '',
            stories,
            concurrency: concurrencyOf(flags.concurrency),
            on_failure: flags.onFailure ?? 'stop',
          },
          principal,
        );
        return `${o.result.key} ${o.result.title} is a draft (${stories.length} stories): approve it with \`intentlog founder run approve ${project_id} ${o.result.key}\``;
      }),
    );

const MOVES = {
  approve: ['ApproveRun', 'approve a draft run: next_in_run starts handing out its stories'],
  pause: ['PauseRun', 'pause a run: next_in_run answers paused until it resumes'],
  resume: ['ResumeRun', 'resume a paused run'],
  stop: ['StopRun', 'stop a run for good (work done so far stays)'],
  cancel: ['CancelRun', 'cancel a run (a draft, or one under way)'],
} as const;

const move = (name: keyof typeof MOVES) =>
  leaf(name, MOVES[name][1])
    .argument('<project>', 'the project id')
    .argument('<run>', "the run's key, like R-7, or its id")
    .option('--reason <text>', 'why (pause, stop, cancel)')
    .action(
      run(async (app, principal, [project_id, ref], flags: RunFlags) => {
        const o = await runs(app).move(
          { project_id: project_id!, run: ref!, ...(flags.reason ? { reason: flags.reason } : {}) },
          MOVES[name][0],
          principal,
        );
        return `${o.result.key} is ${o.result.status}`;
      }),
    );

const show = () =>
  leaf('show', 'print a run: its stories in build order and what comes next')
    .argument('<project>', 'the project id')
    .argument('<run>', "the run's key, like R-7, or its id")
    .option('--json', 'print it as JSON')
    .action(
      run(async (app, principal, [project_id, ref], flags) => {
        const r = await getRun(app, project_id!, ref!, principal);
        if (flags.json) return JSON.stringify(r);
        return [
          `${r.run.key} ${r.run.title}: ${r.run.status}, concurrency ${r.run.concurrency}, on failure ${r.run.on_failure}`,
          ...r.stories.map((s) => `  ${s.position}. ${s.key} ${s.status} ${s.title}`),
          `next: ${r.next}`,
        ].join('\n');
      }),
    );

const list = () =>
  leaf('list', "list a project's runs")
    .argument('<project>', 'the project id')
    .action(
      run(async (app, _principal, [project_id]) => {
        const all = await runs(app).runsOf(project_id!);
        if (all.length === 0) return 'No runs.';
        return all
          .map((r) => `${r.key} ${r.status} ${r.title} (${r.story_ids.length} stories)`)
          .join('\n');
      }),
    );

export const founderRunCommand = (): Command =>
  new Command('run')
    .description('build runs: create, approve, pause, resume, stop, cancel, show, list')
    .addCommand(create())
    .addCommand(move('approve'))
    .addCommand(move('pause'))
    .addCommand(move('resume'))
    .addCommand(move('stop'))
    .addCommand(move('cancel'))
    .addCommand(show())
    .addCommand(list());

/** `intentlog founder root <project> <dir>`: the repository get_design and propose_drift_fix read. */
export const founderRootCommand = (): Command =>
  leaf(
    'root',
    "bind a local repository to the project (get_design's repo paths, propose_drift_fix)",
  )
    .argument('<project>', 'the project id')
    .argument('<dir>', 'the repository directory (absolute)')
    .action(
      run(async (app, principal, [project_id, dir]) => {
        const r = await bindRepoRoot(
          app,
          { project_id: project_id!, dir: resolve(dir!) },
          principal,
        );
        return r.bound
          ? `${r.path} is bound to ${project_id}`
          : `${r.path} was already bound to ${project_id}`;
      }),
    );
