import type { Principal } from '../../commands/principal.js';
import { STORYMAP_STORIES } from '../../projections/storymap/stories.js';
import type { App } from '../app.js';
import { designRefsOf } from './design.js';
import { runHeader } from './run-views.js';
import { runs } from './runs.js';
import { storymap } from './index.js';

/**
 * next_in_run's answer: the story it started, as start_story describes one, plus the run's key,
 * the story's position and how many the run holds; or the run's state and why to stop.
 */
export const nextInRunAnswer = async (
  app: App,
  args: { project_id: string; run: string },
  principal: Principal,
) => {
  const outcome = await runs(app).next(args, principal);
  const next = outcome.result;
  const run = runHeader(outcome.run);
  if (next.kind === 'stop')
    return {
      position: outcome.position,
      result: {
        run,
        state: next.state,
        message: next.message,
        ...(next.waiting_on ? { waiting_on: next.waiting_on } : {}),
        ...(next.state === 'complete'
          ? await nextRun(app, args.project_id, outcome.run.number)
          : {}),
      },
    };
  await app.waitFor(outcome.position, [STORYMAP_STORIES]);
  const reads = storymap(app).reads;
  const story = (await reads.story(args.project_id, next.story.id))!;
  const others = (await reads.rows(args.project_id)).filter(
    (r) => r.status === 'in_progress' && r.id !== story.id && r.cancelled_at === null,
  );
  const warnings = [
    ...(others.length > 0
      ? [`other stories are in progress: ${others.map((r) => r.key).join(', ')}`]
      : []),
    ...(story.acceptance_criteria.length === 0 ? ['the story has no criteria'] : []),
  ];
  return {
    position: outcome.position,
    result: {
      story_id: story.id,
      key: story.key,
      title: story.title,
      status: story.status,
      priority: story.priority,
      effort: story.effort,
      release: story.release,
      build_sequence: story.build_sequence,
      version: story.version,
      user_story: story.user_story,
      notes: story.notes,
      acceptance_criteria: story.acceptance_criteria,
      design_refs: await designRefsOf(app, args.project_id, story.id),
      warnings,
      note: `Started by ${run.key} (${next.position} of ${next.of}). Build it, finish with complete_story, then call next_in_run again.`,
      run: { key: run.key, id: run.id, position: next.position, of: next.of },
    },
  };
};

/** A complete run names the next draft lined up after it, for a person to approve. */
const nextRun = async (app: App, projectId: string, after: number) => {
  const draft = (await runs(app).runsOf(projectId)).find(
    (r) => r.number > after && r.status === 'draft',
  );
  return draft ? { next_run: { key: draft.key, id: draft.run_id, title: draft.title } } : {};
};
