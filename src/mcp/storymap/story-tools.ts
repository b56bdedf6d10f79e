import { z } from 'zod';
import { storymap, type StoryInput } from '../../app/storymap/index.js';
import { listStories, storyDetail } from '../../app/storymap/queries.js';
import { checkReadyReleases } from '../../app/storymap/readiness.js';
import { invalidArgument } from '../../commands/errors.js';
import { parseReport, reportFeatures, missingSections } from '../../commands/storymap/report.js';
import { unanswered } from '../../commands/storymap/vision.js';
import { Effort, StoryPriority, StoryStatus } from '../../events/storymap/index.js';
import type { StoryState } from '../../commands/storymap/story-state.js';
import type { AnyTool } from '../tool.js';
import { CriterionInputSchema, read, result, StoryRef, write, type Call } from './define.js';

const userStory = {
  as_a: z.string().max(2000).optional(),
  i_want: z.string().max(2000).optional(),
  so_that: z.string().max(2000).optional(),
};
const brief = (s: StoryState) => ({
  id: s.story_id,
  key: s.key,
  title: s.title,
  status: s.status,
  version: s.version,
  release: s.release_order,
  activity: s.activity,
  cancelled: s.cancelled !== null,
});

const NewStorySchema = z.strictObject({
  title: z.string().min(1).max(500),
  activity: z.string().max(200).optional(),
  ...userStory,
  priority: StoryPriority.optional(),
  effort: Effort.optional(),
  release_order: z.number().int().min(1).optional(),
  acceptance_criteria: z.array(CriterionInputSchema).max(100).optional(),
});

/** A brownfield report's stories: each "Existing features" bullet, under its own activity. */
const fromReport = async (call: Call, projectId: string, report: string, confirm: boolean) => {
  const parsed = parseReport(report);
  const stories: StoryInput[] = reportFeatures(parsed).map((title) => ({
    title,
    activity: 'Existing functionality (from brownfield report)',
  }));
  const existing = (await storymap(call.app).reads.rows(projectId)).length;
  const { map } = await storymap(call.app).reads.map(projectId, call.principal);
  const vision = Object.fromEntries(Object.entries(map.vision).map(([k, v]) => [k, v.text]));
  const extra = {
    missing_constitution_keys: unanswered(vision),
    missing_sections: missingSections(parsed),
  };
  return { stories, needsConfirm: existing > 0 && !confirm, extra };
};

const createStories: AnyTool = write({
  name: 'create_stories',
  title: 'Create stories',
  description:
    'Adds stories (todo), by hand or from a brownfield report (each bullet under "Existing features"). Refused without a complete vision (constitution_required) unless force. A title matching a live story, ignoring case, is skipped. release_order must be an existing release or the next number (1000 is Go live). Bad criteria refuse the whole batch, every bad field named.',
  args: {
    stories: z.array(NewStorySchema).max(500).optional(),
    report: z.string().max(200_000).optional(),
    confirm: z.boolean().optional(),
    force: z.boolean().optional(),
  },
  output: result({ created: z.number(), stories: z.array(z.unknown()) }),
  run: async (args, call) => {
    if (!args.stories && args.report === undefined)
      throw invalidArgument('Pass stories or report.');
    let stories: StoryInput[] = args.stories ?? [];
    let extra = {};
    if (args.report !== undefined) {
      const r = await fromReport(call, args.project_id, args.report, args.confirm ?? false);
      if (r.needsConfirm)
        return {
          result: {
            requires_confirmation: true,
            created: 0,
            stories: [],
            stories_preview: r.stories,
            ...r.extra,
          },
          summary: 'the map already has stories: confirm to add these',
        };
      stories = [...stories, ...r.stories];
      extra = r.extra;
    }
    const o = await storymap(call.app).createStories(
      {
        project_id: args.project_id,
        stories,
        force: args.force ?? false,
        source: args.report !== undefined ? 'report' : 'manual',
      },
      call.principal,
    );
    const created = o.result.map((s) => ({
      id: s.story_id,
      key: s.key,
      title: s.title,
      criteria: s.criteria.map((c) => c.criterion_id),
    }));
    return {
      result: {
        created: created.length,
        stories: created,
        ...(o.skipped.length > 0 ? { skipped_duplicates: o.skipped } : {}),
        ...extra,
      },
      summary: `${created.length} stories created${o.skipped.length > 0 ? `, ${o.skipped.length} duplicates skipped` : ''}`,
      position: o.position,
    };
  },
});

const UpdateRow = z.strictObject({
  id: z.string().min(1).describe('the story UUID'),
  expected_version: z.number().int().min(0).optional(),
  status: StoryStatus.optional().describe(
    'todo, in_progress, needs_rework or done (ready_for_dev and approved are set by a person)',
  ),
  title: z.string().min(1).max(500).optional(),
  priority: StoryPriority.optional(),
  effort: Effort.optional(),
  release: z.number().int().min(1).optional(),
  activity: z.string().optional(),
  sort_order: z.number().int().min(0).optional(),
  build_sequence: z.number().int().min(1).nullable().optional(),
  dependencies: z.array(z.string()).max(200).optional(),
  notes: z.string().max(50_000).optional(),
  implementation_summary: z.string().max(50_000).optional(),
  implemented_files: z.array(z.string()).max(1000).optional(),
  ...userStory,
});

const updateStories: AnyTool = write({
  name: 'update_stories',
  title: 'Update stories',
  overwrites: true,
  description:
    'Changes story fields in one all-or-nothing batch. With expected_version every row is checked before any is written: one stale row refuses the batch with VERSION_CONFLICT and stale_stories. Refused: ready_for_dev/approved (a person sets them), an unknown activity (valid names listed), a release out of sequence, a dependency outside the project, a dependency cycle (named).',
  args: { stories: z.array(UpdateRow).min(1).max(500) },
  output: result({
    updated: z.number(),
    stories: z.array(z.unknown()),
    dependencies_updated: z.number(),
  }),
  run: async (args, call) => {
    const service = storymap(call.app);
    const o = await service.updateStories(args, call.principal);
    // A release holding a live story not yet built cannot be ready: only the releases of the
    // stories this batch left built or cancelled are checked (most batches: none, no read).
    const readyReleases = await checkReadyReleases(
      service.reads,
      args.project_id,
      o.result
        .filter((s) => s.cancelled !== null || s.status === 'done' || s.status === 'approved')
        .map((s) => s.release_order),
    );
    return {
      result: {
        updated: o.result.length,
        stories: o.result.map(brief),
        dependencies_updated: o.dependencies_updated,
        readyReleases,
      },
      summary: `${o.result.length} stories updated`,
      position: o.position,
    };
  },
});

export const storyTools: AnyTool[] = [
  read({
    name: 'list_stories',
    title: 'List stories',
    description:
      'Stories with filters (status, activity ignoring case, release), limit (default 200) and extra fields (criteria, notes, user_story, depends_on, build_sequence).',
    args: {
      status: StoryStatus.optional(),
      activity: z.string().optional(),
      release: z.number().int().optional(),
      limit: z.number().int().min(1).max(5000).optional(),
      fields: z
        .array(z.enum(['criteria', 'notes', 'user_story', 'depends_on', 'build_sequence']))
        .optional(),
    },
    output: result({ map: z.unknown(), stories: z.array(z.unknown()), summary: z.unknown() }),
    run: async (args, call) => {
      const r = await listStories(storymap(call.app).reads, args.project_id, args, call.principal);
      return { result: r, summary: `${r.stories.length} stories` };
    },
  }),
  read({
    name: 'get_story',
    title: 'Get story details',
    description:
      'Everything about one story: fields, criteria, notes, record (who marked it ready, built and approved it) and history (every status change, by whom and from where). story_id: key, UUID, UUID prefix, or #5 (fifth in the build order).',
    args: { story_id: StoryRef },
    output: result({ id: z.string(), key: z.string(), history: z.array(z.unknown()) }),
    run: async (args, call) => {
      const reads = storymap(call.app).reads;
      await reads.map(args.project_id, call.principal);
      const v = await reads.resolve(args.project_id, args.story_id);
      return {
        result: storyDetail(v, call.app.clock().toISOString()),
        summary: `${v.key} ${v.title} (${v.status})`,
      };
    },
  }),
  createStories,
  updateStories,
  ...(['cancel_story', 'uncancel_story'] as const).map((name) =>
    write({
      name,
      title: name === 'cancel_story' ? 'Cancel a story' : 'Restore a cancelled story',
      overwrites: name === 'cancel_story',
      description:
        name === 'cancel_story'
          ? 'Stops work on a story, reversibly: it drops out of counts and "what next"; its status stays, nothing is deleted.'
          : 'Restores a cancelled story at the status it was cancelled at.',
      args: {
        story_id: StoryRef,
        ...(name === 'cancel_story' ? { reason: z.string().max(2000).optional() } : {}),
      },
      output: result({ story_id: z.string() }),
      run: async (args, call) => {
        const cancel = name === 'cancel_story';
        const o = await storymap(call.app).cancel(
          args as typeof args & { reason?: string },
          call.principal,
          cancel,
        );
        const s = o.result;
        const r = cancel
          ? {
              story_id: s.story_id,
              key: s.key,
              cancelled: true,
              status_preserved: s.status,
              cancellation_reason: s.cancelled?.reason ?? null,
              effect: 'left out of progress counts and what-next answers; stop all work on it',
            }
          : { story_id: s.story_id, key: s.key, cancelled: false, status: s.status };
        return {
          result: r,
          summary: `${s.key} ${cancel ? 'cancelled' : 'restored'}`,
          position: o.position,
        };
      },
    }),
  ),
];
