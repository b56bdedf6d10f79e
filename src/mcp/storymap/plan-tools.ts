import { z } from 'zod';
import { storymap } from '../../app/storymap/index.js';
import { findOrphanedReleases, getBuildOrder } from '../../app/storymap/queries.js';
import { checkReleaseReadiness } from '../../app/storymap/readiness.js';
import { visionState } from '../../app/storymap/read.js';
import { parsePrd } from '../../commands/storymap/prd.js';
import { requireVision } from '../../commands/storymap/create-stories.js';
import { DecisionCategory } from '../../events/storymap/index.js';
import type { AnyTool } from '../tool.js';
import { read, result, StoryRef, write } from './define.js';
import { criteriaTools } from './criteria-tools.js';
import { buildOrderText } from './order-text.js';

const releaseTools: AnyTool[] = [
  read({
    name: 'get_build_order',
    title: 'Get build order',
    description:
      'The order stories are built in: finished stories and stories with a build sequence, never one before a story it depends on, each with depends_on and reason; unsequenced stories listed apart with a note.',
    args: {},
    output: result({
      order: z.array(z.unknown()),
      unsequenced: z.array(z.unknown()),
      generated_at: z.string(),
    }),
    run: async (args, call) => {
      const r = await getBuildOrder(
        call.app,
        storymap(call.app).reads,
        args.project_id,
        call.principal,
      );
      return {
        result: r,
        summary: `${r.order.length} in order, ${r.unsequenced.length} unsequenced`,
        text: buildOrderText(r, args.project_id),
      };
    },
  }),
  read({
    name: 'find_orphaned_releases',
    title: 'Find orphaned releases',
    description:
      'Release numbers stories use with no label (the canvas cannot show them), with fix instructions.',
    args: {},
    output: result({ orphaned_releases: z.number(), orphans: z.array(z.unknown()) }),
    run: async (args, call) => {
      const r = await findOrphanedReleases(
        storymap(call.app).reads,
        args.project_id,
        call.principal,
      );
      return { result: r, summary: `${r.orphaned_releases} orphaned releases` };
    },
  }),
  write({
    name: 'rename_release',
    title: 'Rename a release',
    overwrites: true,
    description:
      "Renames a release. Refused when the release doesn't exist yet: create it by placing a story in it.",
    args: { release_order: z.number().int().min(1), label: z.string().min(1).max(200) },
    output: result({ release_order: z.number(), previous_label: z.string(), label: z.string() }),
    run: async (args, call) => {
      const service = storymap(call.app);
      const { map } = await service.reads.map(args.project_id, call.principal);
      const previous =
        map.releases.find((r) => r.release_order === args.release_order)?.label ?? null;
      const o = await service.renameRelease(args, call.principal);
      return {
        result: { release_order: args.release_order, previous_label: previous, label: o.result },
        summary: `release ${args.release_order} is now ${o.result}`,
        position: o.position,
      };
    },
  }),
  read({
    name: 'check_release_readiness',
    title: 'Check release readiness',
    description:
      'Pre-flight check before building a release (default: the current one). Gaps (stories to build with no criteria or no must criteria) and verification gaps (finished with no passing result) block; missing plans are advice. Show the report to the person and ask before building.',
    args: { release_order: z.number().int().min(1).optional() },
    output: result({ ready: z.boolean(), report: z.string() }),
    run: async (args, call) => {
      const r = await checkReleaseReadiness(
        storymap(call.app).reads,
        args.project_id,
        args.release_order,
        call.principal,
      );
      return { result: r, summary: r.report };
    },
  }),
];

const Category = DecisionCategory.optional();
const decisionTools: AnyTool[] = [
  write({
    name: 'log_decision',
    title: 'Log a decision',
    description:
      'Records a decision (category architecture, product, technical or trade-off; default technical), optionally linked to a story.',
    args: {
      title: z.string().min(1).max(500),
      description: z.string().min(1).max(20_000),
      category: Category,
      story_id: StoryRef.optional(),
    },
    output: result({ decision_id: z.string(), title: z.string() }),
    run: async (args, call) => {
      const o = await storymap(call.app).logDecision(args, call.principal);
      return {
        result: { ...o.result, confirmation: `Decision logged: ${o.result.title}` },
        summary: `Decision logged: ${o.result.title}`,
        position: o.position,
      };
    },
  }),
  write({
    name: 'amend_decision',
    title: 'Amend a decision',
    overwrites: true,
    description:
      'Corrects a decision (full UUID or prefix). Refused with nothing to change, an unknown id, or a retracted decision.',
    args: {
      decision_id: z.string().min(1),
      title: z.string().min(1).max(500).optional(),
      description: z.string().min(1).max(20_000).optional(),
      category: Category,
    },
    output: result({ decision_id: z.string() }),
    run: async (args, call) => {
      const o = await storymap(call.app).amendDecision(args, call.principal);
      const d = [...o.result.decisions.values()].find((x) =>
        x.decision_id.startsWith(args.decision_id),
      )!;
      return {
        result: { ...d },
        summary: `decision ${d.decision_id} amended`,
        position: o.position,
      };
    },
  }),
  write({
    name: 'retract_decision',
    title: 'Retract a decision',
    overwrites: true,
    description:
      'Withdraws a decision, keeping the record (time and reason). Refused when already retracted.',
    args: { decision_id: z.string().min(1), reason: z.string().max(2000).optional() },
    output: result({ decision_id: z.string(), retracted: z.boolean() }),
    run: async (args, call) => {
      const o = await storymap(call.app).retractDecision(args, call.principal);
      const d = [...o.result.decisions.values()].find((x) =>
        x.decision_id.startsWith(args.decision_id),
      )!;
      return {
        result: { ...d, reason: args.reason ?? null },
        summary: `decision ${d.decision_id} retracted`,
        position: o.position,
      };
    },
  }),
  write({
    name: 'add_note',
    title: 'Add implementation note',
    description:
      "Appends a note to the story's notes after a blank line. Needs comment access, not edit access.",
    args: { story_id: StoryRef, note: z.string().min(1).max(20_000) },
    output: result({ story_id: z.string(), notes: z.string() }),
    run: async (args, call) => {
      const o = await storymap(call.app).addNote(args, call.principal);
      return {
        result: { story_id: o.result.story_id, key: o.result.key, notes: o.result.notes ?? '' },
        summary: `note added to ${o.result.key}`,
        position: o.position,
      };
    },
  }),
  read({
    name: 'import_prd',
    title: 'Import PRD document',
    description:
      'Parses a PRD by its Markdown structure, with no language model: headings become activities, top-level list items stories, Given/When/Then lines under a story its criteria. Returns a proposal (hierarchy, summary, existingActivities) and saves nothing: pass the stories you want to create_stories.',
    args: {
      prd: z.string().min(1).max(500_000),
      format: z.enum(['PRD', 'Markdown', 'text']).optional(),
      force: z.boolean().optional(),
    },
    output: result({
      hierarchy: z.unknown(),
      summary: z.unknown(),
      existingActivities: z.array(z.string()),
    }),
    run: async (args, call) => {
      const { map } = await storymap(call.app).reads.map(args.project_id, call.principal);
      const vision = Object.fromEntries(Object.entries(map.vision).map(([k, v]) => [k, v.text]));
      requireVision(vision, args.force ?? false);
      const activities = parsePrd(args.prd);
      const stories = activities.flatMap((a) => a.stories);
      const summary = {
        activities: activities.length,
        stories: stories.length,
        criteria: stories.reduce((n, s) => n + s.acceptance_criteria.length, 0),
        parser: 'markdown structure (deterministic; no language model)',
      };
      return {
        result: {
          hierarchy: { activities },
          summary,
          existingActivities: map.activities.map((a) => a.name),
          vision_status: visionState(map).status,
        },
        summary: `${summary.stories} stories in ${summary.activities} activities proposed`,
      };
    },
  }),
];

export const planTools: AnyTool[] = [...criteriaTools, ...releaseTools, ...decisionTools];
