import { z } from 'zod';
import { founderTodoAcross } from '../../app/storymap/founder-todo.js';
import { nextInRunAnswer } from '../../app/storymap/run-handout.js';
import { getRun } from '../../app/storymap/run-views.js';
import type { AnyTool } from '../tool.js';
import { Session, sessionOf } from './build-define.js';
import { startStoryAs } from './build-tools.js';
import { ProjectId, read, result, write } from './define.js';

const RunRef = z.string().min(1).max(200).describe("the run's key, like R-7, or its id");
const RunHeader = z.looseObject({
  key: z.string(),
  id: z.string(),
  title: z.string(),
  status: z.string(),
  concurrency: z.number(),
  on_failure: z.string(),
});

/** Build runs (contracts/storymap.md, "Build order and runs"); the founder runs them from the CLI. */
export const runTools: AnyTool[] = [
  read({
    name: 'get_run',
    title: 'Read a build run',
    description:
      'A build run and all its stories: run (key, id, title, status, concurrency, on_failure), progress, and stories in build order, each with its status, claim, pull request, has_plan, plan_steps and acceptance_criteria with each result. next says what to do: call next_in_run, wait for approval, or stop. Runs are created and approved by the founder (`intentlog founder run`).',
    args: { run: RunRef },
    output: result({
      run: RunHeader,
      progress: z.looseObject({ total: z.number(), done: z.number() }),
      stories: z.array(z.unknown()),
      next: z.string(),
    }),
    run: async (args, call) => {
      const r = await getRun(call.app, args.project_id, args.run, call.principal);
      return {
        result: r,
        summary: `${r.run.key} ${r.run.status}: ${r.progress.done}/${r.progress.total} built; ${r.next}`,
      };
    },
  }),
  write({
    name: 'next_in_run',
    title: 'Next story in a build run',
    description:
      "Starts the next story of an approved run, in dependency order within its concurrency, and returns the story as start_story does plus run (key, position, of). Call it again after each complete_story. Otherwise returns run, state (draft, paused, cancelled, stopped, complete, full or waiting, with waiting_on) and message: stop. A complete run names the next draft run as next_run: don't start it until next_in_run hands it out.",
    args: { run: RunRef, session: Session },
    output: result({ run: z.unknown() }),
    run: async (args, call) => {
      const { result: r, position } = await nextInRunAnswer(call.app, args, call.principal);
      if ('state' in r)
        return { result: r, summary: `${r.run.key} ${r.state}: ${r.message}`, position };
      // handed out: start it for this session as start_story does (claim, warnings, plan)
      const session = sessionOf(call, args.session);
      const unclaimed = (why: string) => ({
        result: { ...r, warnings: [...r.warnings, why] },
        summary: `handed out ${r.key} (${r.run.key} ${r.run.position}/${r.run.of}), not claimed`,
        position,
      });
      if (!session)
        return unclaimed(
          'not claimed: this call has no MCP session (stateless HTTP); call start_story with session to claim it',
        );
      try {
        const started = await startStoryAs(
          call,
          { project_id: args.project_id, story_id: r.story_id },
          session,
        );
        // the hand-out itself set it in progress: that is no news to this session
        const warnings = started.result.warnings.filter((w) => !/was already in progress/.test(w));
        return {
          result: { ...started.result, warnings, run: r.run },
          summary: `started ${r.key} (${r.run.key} ${r.run.position}/${r.run.of})`,
          position: Math.max(position, started.position),
        };
      } catch (error) {
        return unclaimed(`not claimed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  }),
  read({
    name: 'get_founder_todo',
    title: "What's waiting on me",
    global: true,
    description:
      'Everything waiting on the founder, most unblocking first, then items in an approved run: built stories to approve, stories to mark ready or sequence, runs to approve or resume. Each item has project_id, url, kind, story_key, action (the `intentlog founder` command that clears it), detail, unblocks and run. Pass project_id for one project; omit it for every project you can reach.',
    args: { project_id: ProjectId.optional() },
    output: result({ items: z.array(z.unknown()) }),
    run: async (args, call) => {
      // global: project_id is optional here, though the row type assumes every tool takes one
      const projectId = (args as { project_id?: string }).project_id;
      const r = await founderTodoAcross(call.app, call.principal, projectId);
      return {
        result: r,
        summary: `${r.items.length} items waiting on the founder across ${r.projects} project(s)`,
      };
    },
  }),
];
