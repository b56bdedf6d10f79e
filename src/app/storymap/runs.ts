import { randomUUID } from 'node:crypto';
import { invalidState, isDomainError, notFound } from '../../commands/errors.js';
import { runCommand } from '../../commands/handler.js';
import type { Principal } from '../../commands/principal.js';
import { requireMap, requireWritable, resolveStory } from '../../commands/storymap/refs.js';
import { loadMap } from '../../commands/storymap/run.js';
import {
  RUN_NUMBER_TAKEN,
  runDecider,
  type RunCommand,
} from '../../commands/storymap/run-founder.js';
import { handOut } from '../../commands/storymap/run-handout.js';
import type { StoryFact } from '../../commands/storymap/run-next.js';
import { runStream, type RunState } from '../../commands/storymap/run-state.js';
import type { RunOnFailure } from '../../events/storymap/index.js';
import type { OrderRow } from '../../projections/storymap/order.js';
import { STORYMAP_RUNS, type RunView, runsModel } from '../../projections/storymap/runs.js';
import type { App } from '../app.js';
import { perApp } from '../per-app.js';
import { storymap } from './index.js';
import { callerOf, metaOf } from './access.js';

type In = { project_id: string };

export const factOf = (r: OrderRow): StoryFact => ({
  id: r.id,
  key: r.key,
  title: r.title,
  status: r.status,
  cancelled: r.cancelled_at !== null,
  depends_on: r.depends_on,
});

/** A view of the run's stream as the decider left it (for a command's answer). */
const stateView = (s: RunState) => ({ key: s.key, id: s.run_id, title: s.title, status: s.status });

/** Runs: the founder's side (create, approve, pause, resume, stop, cancel) and the agents' reads. */
export const runService = (app: App) => {
  const reads = storymap(app).reads;
  const fresh = async () => app.waitFor(await app.log.head(), [STORYMAP_RUNS]);

  const runsOf = async (projectId: string): Promise<RunView[]> => {
    await fresh();
    return (await runsModel.runs.values(app.log.models, projectId)).sort(
      (a, b) => a.number - b.number,
    );
  };

  /** `R-7`, `7`, or the run's id; refused plainly when nothing matches. */
  const findRun = async (projectId: string, ref: string): Promise<RunView> => {
    const wanted = ref.trim();
    const number = /^(?:r-)?(\d+)$/i.exec(wanted)?.[1];
    const run = (await runsOf(projectId)).find(
      (r) => r.run_id === wanted || (number !== undefined && r.number === Number(number)),
    );
    if (!run) throw notFound(`No run matches "${ref}"`, { run: ref });
    return run;
  };

  const facts = async (projectId: string) =>
    new Map((await reads.rows(projectId)).map((r) => [r.id, factOf(r)]));

  const create = async (
    args: In & { title: string; stories: string[]; concurrency: number; on_failure: RunOnFailure },
    principal: Principal,
  ) => {
    const caller = await callerOf(app, args.project_id, principal);
    const map = requireWritable(requireMap((await loadMap(app.log, args.project_id)).state));
    const story_ids = args.stories.map((ref) => resolveStory(map, ref).story_id);
    const run_id = randomUUID();
    let number = Math.max(0, ...(await runsOf(args.project_id)).map((r) => r.number)) + 1;
    // the number is the stream: a race for it loses with RUN_NUMBER_TAKEN and takes the next
    for (;;) {
      const command: RunCommand = {
        type: 'CreateRun',
        data: {
          project_id: args.project_id,
          run_id,
          number,
          title: args.title,
          story_ids,
          concurrency: args.concurrency,
          on_failure: args.on_failure,
          caller,
        },
      };
      try {
        return await runCommand(app.log, {
          decider: runDecider,
          stream: runStream(args.project_id, number),
          command,
          meta: metaOf(caller),
          respond: stateView,
        });
      } catch (error) {
        if (!(isDomainError(error) && error.message === RUN_NUMBER_TAKEN)) throw error;
        number++;
      }
    }
  };

  const move = async (
    args: In & { run: string; reason?: string },
    type: Exclude<RunCommand['type'], 'CreateRun'>,
    principal: Principal,
  ) => {
    const caller = await callerOf(app, args.project_id, principal);
    const run = await findRun(args.project_id, args.run);
    return runCommand(app.log, {
      decider: runDecider,
      stream: runStream(args.project_id, run.number),
      command: { type, data: { reason: args.reason ?? null, caller } },
      meta: metaOf(caller),
      respond: stateView,
    });
  };

  /** next_in_run: hands out the next story, or says why not (see run-next.ts). */
  const next = async (args: In & { run: string }, principal: Principal) => {
    const caller = await callerOf(app, args.project_id, principal);
    const { map } = await reads.map(args.project_id, principal);
    if (map.archived)
      throw invalidState('The project is archived: restore it with restore_project first.', {
        project_id: map.project_id,
      });
    const run = await findRun(args.project_id, args.run);
    return handOut(app.log, {
      projectId: args.project_id,
      number: run.number,
      storyIds: run.story_ids,
      known: await facts(args.project_id),
      caller,
      meta: metaOf(caller),
    }).then((outcome) => ({ ...outcome, run }));
  };

  return { runsOf, findRun, facts, create, move, next };
};

export const runs = perApp(runService);
