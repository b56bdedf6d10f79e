import type { Principal } from '../../commands/principal.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import { nextInRun, runOrder, type NextInRun } from '../../commands/storymap/run-next.js';
import type { RunState } from '../../commands/storymap/run-state.js';
import type { RunView } from '../../projections/storymap/runs.js';
import type { StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { runs } from './runs.js';
import { storymap } from './index.js';

/** The run's stream state, rebuilt from its read model (the same fields the decider reads). */
export const stateOfView = (v: RunView): RunState => ({
  exists: true,
  project_id: v.project_id,
  run_id: v.run_id,
  number: v.number,
  key: v.key,
  title: v.title,
  story_ids: v.story_ids,
  concurrency: v.concurrency,
  on_failure: v.on_failure,
  status: v.status,
  reason: v.reason,
  handed_out: v.handed_out.map((h) => h.story_id),
});

/** The building loop's side of a story in the run: who holds it, its plan and its pull request. */
const buildingOf = (view: StoryView | undefined) => ({
  claim: view?.build.claim ?? null,
  pull_request: view?.build.pr_url ?? null,
  has_plan: !!view?.build.plan,
  plan_steps: view?.build.plan?.steps.length ?? 0,
});

const whatNext = (n: NextInRun): string => {
  if (n.kind === 'hand_out') return `call next_in_run: ${n.story.key} is next`;
  if (n.state === 'draft') return 'wait for a person to approve the run';
  if (n.state === 'full' || n.state === 'waiting' || n.state === 'paused')
    return `${n.state}: ${n.message}`;
  return `stop: ${n.message}`;
};

export const runHeader = (v: RunView) => ({
  key: v.key,
  id: v.run_id,
  title: v.title,
  status: v.status,
  concurrency: v.concurrency,
  on_failure: v.on_failure,
  ...(v.reason ? { reason: v.reason } : {}),
});

/** get_run: the run, its progress, its stories in build order, and what to do next. */
export const getRun = async (app: App, projectId: string, ref: string, principal: Principal) => {
  const reads = storymap(app).reads;
  await reads.map(projectId, principal);
  const service = runs(app);
  const view = await service.findRun(projectId, ref);
  const facts = await service.facts(projectId);
  const state = stateOfView(view);
  const order = runOrder(state, facts);
  const cancelled = view.story_ids.filter((id) => facts.get(id)?.cancelled).length;
  const done = order.filter(isFinished).length;
  const handed = new Set(state.handed_out);
  const stories = await Promise.all(
    order.map(async (fact, i) => {
      const story = await reads.story(projectId, fact.id);
      return {
        position: i + 1,
        id: fact.id,
        key: fact.key,
        title: fact.title,
        status: fact.status,
        depends_on: fact.depends_on.map((d) => facts.get(d)?.key ?? d),
        handed_out: handed.has(fact.id),
        ...buildingOf(story),
        acceptance_criteria: (story?.acceptance_criteria ?? []).map((c) => ({
          id: c.id,
          text: c.text,
          priority: c.priority,
          last_result: c.last_result,
        })),
      };
    }),
  );
  const next = nextInRun(state, facts);
  return {
    run: runHeader(view),
    progress: {
      total: order.length,
      done,
      in_progress: order.filter((s) => s.status === 'in_progress').length,
      to_build: order.length - done - order.filter((s) => s.status === 'in_progress').length,
      cancelled,
      percent: order.length === 0 ? 0 : Math.round((done / order.length) * 100),
    },
    stories,
    state: next.kind === 'hand_out' ? 'ready' : next.state,
    next: whatNext(next),
  };
};
