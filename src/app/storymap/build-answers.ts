import type { StoryEvent } from '../../commands/storymap/story-state.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import type { MapView, StoryView } from '../../projections/storymap/views.js';
import { builtOverlaps, planFiles, plannedOverlaps } from './build-reads.js';
import { storyDetail } from './queries.js';
import { currentRelease } from './readiness.js';
import type { StoryMapBuildIndex } from './build-index.js';

const keys = (list: readonly { key: string }[]) => list.map((x) => x.key).join(', ');

/** The line to add to a pull request's body, since no GitHub App stamps it here. */
export const prFooter = (v: Pick<StoryView, 'key' | 'title' | 'id'>) =>
  `Implements ${v.key}: ${v.title} (intentlog story ${v.id})`;

type Started = {
  events: readonly StoryEvent[];
  released: { key: string } | null;
  session_id: string;
  now: string;
};

/** What start_story answers: the story, its plan and criteria, and every warning that applies. */
export const startAnswer = async (
  index: StoryMapBuildIndex,
  map: MapView,
  v: StoryView,
  started: Started,
) => {
  const warnings: string[] = [];
  const claimed = started.events.find((e) => e.type === 'story.claimed');
  if (!started.events.some((e) => e.type === 'story.status_changed'))
    warnings.push(
      claimed
        ? `${v.key} was already in progress.`
        : `${v.key} was already in progress, held by this session.`,
    );
  const from = claimed?.type === 'story.claimed' ? claimed.data.took_over_from : null;
  if (from)
    warnings.push(
      `Taken over from a quiet session: ${from.session_id} (${from.by}) was last seen at ${from.last_seen_at}.`,
    );
  const files = planFiles(v);
  const worked = await index.worked(v.project_id);
  const { building, overlaps } = plannedOverlaps(worked, v, files);
  for (const o of overlaps)
    warnings.push(
      `Another session's plan for ${o.key} touches the same files: ${o.files.join(', ')}.`,
    );
  if (building.length > 0) warnings.push(`Other stories are in progress: ${keys(building)}.`);
  const detail = storyDetail(v, started.now);
  if (v.acceptance_criteria.length === 0)
    warnings.push(`${v.key} has no acceptance criteria: add_criteria before building.`);
  else if (detail.test_coverage.untested_criteria.length > 0)
    warnings.push(
      `${detail.test_coverage.untested_criteria.length} of ${v.acceptance_criteria.length} criteria have no linked test yet (save_tests).`,
    );
  if (!v.build.plan) warnings.push(`${v.key} has no plan yet: save_plan before you build.`);
  const current = currentRelease(map, await index.rows(v.project_id));
  if (current && current.release_order !== v.release)
    warnings.push(
      `${v.key} is in release ${v.release}, outside the current release ${current.release_order} (${current.label}).`,
    );
  const affected = builtOverlaps(worked, v, files);
  if (affected.length > 0)
    warnings.push(
      `The plan touches files built stories own (${affected.map((a) => `${a.key}: ${a.files.join(', ')}`).join('; ')}): re-verify those stories before completing.`,
    );
  return {
    story_id: v.id,
    key: v.key,
    title: v.title,
    status: v.status,
    priority: v.priority,
    effort: v.effort,
    release: v.release,
    build_sequence: v.build_sequence,
    version: v.version,
    user_story: v.user_story,
    notes: v.notes,
    acceptance_criteria: v.acceptance_criteria,
    plan: detail.plan,
    plan_feedback: detail.plan_feedback,
    design_refs: detail.design_refs,
    affected_built_stories: affected,
    claim: detail.claim,
    suggested_branch: detail.suggested_branch,
    ...(started.released ? { released: started.released.key } : {}),
    warnings,
    note: `Claimed for session ${started.session_id}${started.released ? ` (${started.released.key} was put back)` : ''}. Plan (save_plan), build, link tests (save_tests), report each criterion (report_criteria), then complete_story. If you are stuck, raise_blocker and stop.`,
  };
};

/** The next story of the release by build sequence, and the top of the whole build order. */
const nextStories = async (index: StoryMapBuildIndex, v: StoryView) => {
  const open = (await index.order(v.project_id)).order.filter(
    (o) => !isFinished(o) && o.status !== 'in_progress' && o.id !== v.id,
  );
  const rows = new Map((await index.rows(v.project_id)).map((r) => [r.id, r]));
  const next = open.find((o) => rows.get(o.id)?.release === v.release) ?? null;
  const top = open[0] ?? null;
  const brief = (o: (typeof open)[number] | null) =>
    o && { id: o.id, key: o.key, title: o.title, build_sequence: o.build_sequence };
  return { next_story: brief(next), top_of_build_order: top?.id !== next?.id ? brief(top) : null };
};

/** What complete_story answers, as text and as fields. */
export const completeAnswer = async (index: StoryMapBuildIndex, v: StoryView) => {
  const files = new Set(v.implemented_files);
  const untested = v.acceptance_criteria.filter((c) => c.priority === 'must' && c.test_count === 0);
  const worked = await index.worked(v.project_id);
  const built = builtOverlaps(worked, v, files);
  const { overlaps: planned } = plannedOverlaps(worked, v, files);
  const { next_story, top_of_build_order } = await nextStories(index, v);
  const footer = v.build.pr_url ? prFooter(v) : null;
  const lines = [
    `${v.key} ${v.title} is done.${v.build.forced_unmet.length > 0 ? ` Forced with ${v.build.forced_unmet.length} must criteria not passing.` : ''}`,
    ...(untested.length > 0
      ? [
          `Must criteria with no linked test: ${untested.map((c) => `${c.id.slice(0, 8)} "${c.text}"`).join('; ')}.`,
        ]
      : []),
    ...built.map(
      (b) => `Files shared with built story ${b.key}: ${b.files.join(', ')} — re-verify it.`,
    ),
    ...planned.map(
      (p) => `Files another session plans to change in ${p.key}: ${p.files.join(', ')}.`,
    ),
    ...(footer
      ? [`PR ${v.build.pr_url} linked. No GitHub App here: add this line to its body:`, footer]
      : []),
    next_story
      ? `Next in release ${v.release}: ${next_story.key} ${next_story.title} (start_story).`
      : `Nothing left to build in release ${v.release}.`,
    ...(top_of_build_order
      ? [`Top of the whole build order: ${top_of_build_order.key} ${top_of_build_order.title}.`]
      : []),
  ];
  return {
    story_id: v.id,
    key: v.key,
    status: v.status,
    text: lines.join('\n'),
    // the story card's fields (get_story's names): a host without MCP Apps still has them
    title: v.title,
    priority: v.priority,
    effort: v.effort,
    release: v.release,
    activity: v.activity,
    version: v.version,
    cancelled_at: v.cancelled_at,
    claim: null,
    acceptance_criteria: v.acceptance_criteria,
    implemented_files: v.implemented_files,
    ci_regressed: v.ci_regressed,
    tests_predate_code: v.tests_predate_code,
    forced_unmet: v.build.forced_unmet,
    untested_must_criteria: untested.map((c) => ({ criterion_id: c.id, text: c.text })),
    overlapping_files: { built_stories: built, planned_work: planned },
    pr_url: v.build.pr_url,
    pr_footer: footer,
    next_story,
    top_of_build_order,
  };
};
