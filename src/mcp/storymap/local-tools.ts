import { z } from 'zod';
import { DecisionCategory, Effort, StoryPriority } from '../../events/storymap/index.js';
import { Annotations, type AnyTool } from '../tool.js';
import { localTool, StoryRef } from './local-define.js';
import { own } from '../../events/own.js';

/**
 * The local server's 15 tools (contracts/storymap.md, "Local server"): core 7, standard +5,
 * all +3. Each names the hosted tool it delegates to; the parameters are the local contract's.
 */
const write = Annotations.mutation({ destructive: false, idempotent: false });
const overwrite = Annotations.mutation({ destructive: true, idempotent: false });

/** The local filter's words: each a group of statuses, as an agent means them. */
const FILTERS: Record<string, readonly string[]> = {
  todo: ['todo', 'ready_for_dev', 'needs_rework'],
  in_progress: ['in_progress'],
  done: ['done', 'approved'],
};

type Row = { key?: unknown; title?: unknown; activity?: unknown; status?: unknown };

/** list_stories' `filter`: a status group, or a search term over key, title and activity. */
const filtered = (result: unknown, filter: string | undefined) => {
  const r = result as { stories: Row[] } & Record<string, unknown>;
  if (filter === undefined) return r;
  const group = own(FILTERS, filter);
  const term = filter.toLowerCase();
  const keep = (s: Row) =>
    group
      ? group.includes(String(s.status))
      : [s.key, s.title, s.activity].some((v) =>
          String(v ?? '')
            .toLowerCase()
            .includes(term),
        );
  const stories = r.stories.filter(keep);
  return { ...r, filter, stories, showing: stories.length };
};

const core: AnyTool[] = [
  localTool({
    name: 'list_stories',
    title: 'List stories',
    description:
      'Stories of the linked project with status, priority, effort and criteria, and a summary. filter: todo (todo, ready_for_dev, needs_rework), in_progress, done (done, approved), or a search term over key, title and activity.',
    mode: 'core',
    hosted: 'list_stories',
    args: { filter: z.string().min(1).max(200).optional() },
    annotations: Annotations.query,
    toHosted: () => ({ limit: 5000, fields: ['criteria'] }),
    after: (result, args) => filtered(result, args.filter),
  }),
  localTool({
    name: 'mark_in_progress',
    title: 'Mark a story in progress',
    description:
      'Marks a story in progress and claims it for this session (the hosted start_story). Refused for a cancelled story: stop all work on it.',
    mode: 'core',
    hosted: 'start_story',
    args: { story_id: StoryRef },
    annotations: write,
    toHosted: (a) => ({ story_id: a.story_id }),
    names: (a) => [a.story_id],
  }),
  localTool({
    name: 'report_criteria',
    title: 'Report criteria results',
    description:
      'Records pass, fail or blocked per criterion. criterion_id: full id or a prefix of at least 4 characters. The ledger numbers attempts itself; attempt is accepted and checked, not stored.',
    mode: 'core',
    hosted: 'report_criteria',
    args: {
      story_id: StoryRef,
      results: z
        .array(
          z.strictObject({
            criterion_id: z.string().min(1),
            status: z.enum(['pass', 'fail', 'blocked']),
            detail: z.string().max(20_000).optional(),
            attempt: z.number().int().min(1).optional(),
          }),
        )
        .min(1)
        .max(200),
    },
    annotations: overwrite,
    toHosted: (a) => ({
      story_id: a.story_id,
      results: a.results.map(({ criterion_id, status, detail }) => ({
        criterion_id,
        status,
        ...(detail !== undefined ? { detail } : {}),
      })),
    }),
    names: (a) => [a.story_id],
  }),
  localTool({
    name: 'raise_blocker',
    title: 'Raise a blocker',
    description:
      'Records a blocker and the single decision the founder needs to make. Stop work on the story after, and do not call mark_done.',
    mode: 'core',
    hosted: 'raise_blocker',
    args: {
      story_id: StoryRef,
      summary: z.string().min(1).max(2000),
      attempting: z.string().min(1).max(20_000),
      failing: z.string().min(1).max(20_000),
      decision_needed: z.string().min(1).max(20_000),
      criterion_id: z.string().min(1).optional(),
      attempts: z.number().int().min(1).optional(),
    },
    annotations: write,
    toHosted: (a) => ({ ...a }),
    names: (a) => [a.story_id],
  }),
  localTool({
    name: 'mark_done',
    title: 'Mark a story done',
    description:
      'Marks a story done (the hosted complete_story). While any must criterion is failing or unreported it returns the blocking list instead, unless force: true. summary: what you built (default: a line saying it was marked done here).',
    mode: 'core',
    hosted: 'complete_story',
    args: {
      story_id: StoryRef,
      force: z.boolean().optional(),
      summary: z.string().min(1).max(50_000).optional(),
    },
    annotations: write,
    toHosted: (a) => ({
      story_id: a.story_id,
      summary: a.summary ?? 'Marked done from the local story-map server.',
      ...(a.force !== undefined ? { force: a.force } : {}),
    }),
    names: (a) => [a.story_id],
  }),
  localTool({
    name: 'get_status',
    title: 'Get project status',
    description:
      'Done, in progress and todo counts of the linked project, with cancelled stories (stop all work on these).',
    mode: 'core',
    hosted: 'get_status',
    args: {},
    annotations: Annotations.query,
    toHosted: () => ({}),
  }),
  localTool({
    name: 'add_note',
    title: 'Add implementation note',
    description: "Appends an implementation note to the story's notes.",
    mode: 'core',
    hosted: 'add_note',
    args: { story_id: StoryRef, note: z.string().min(1).max(20_000) },
    annotations: write,
    toHosted: (a) => ({ ...a }),
    names: (a) => [a.story_id],
  }),
];

const Category = DecisionCategory.optional();
const standard: AnyTool[] = [
  localTool({
    name: 'create_story',
    title: 'Create a story',
    description:
      'Creates one story (todo). Refused until the vision is complete (constitution_required); a title matching a live story is skipped.',
    mode: 'standard',
    hosted: 'create_stories',
    args: {
      title: z.string().min(1).max(500),
      activity: z.string().max(200).optional(),
      priority: StoryPriority.optional(),
      effort: Effort.optional(),
    },
    annotations: write,
    toHosted: (a) => ({ stories: [{ ...a }] }),
    after: (result) => {
      const r = result as { stories: unknown[] } & Record<string, unknown>;
      return { ...r, story: r.stories[0] ?? null };
    },
  }),
  localTool({
    name: 'get_context',
    title: 'Get project context',
    description: "The linked project's INTENT.md: vision, releases, activities, stories, criteria.",
    mode: 'standard',
    hosted: 'get_context',
    args: {},
    annotations: Annotations.query,
    toHosted: () => ({}),
  }),
  localTool({
    name: 'log_decision',
    title: 'Log a decision',
    description:
      'Records a decision (category architecture, product, technical or trade-off), optionally linked to a story.',
    mode: 'standard',
    hosted: 'log_decision',
    args: {
      title: z.string().min(1).max(500),
      description: z.string().min(1).max(20_000),
      category: Category,
      story_id: StoryRef.optional(),
    },
    annotations: write,
    toHosted: (a) => ({ ...a }),
    names: (a) => (a.story_id ? [a.story_id] : []),
  }),
  localTool({
    name: 'amend_decision',
    title: 'Amend a decision',
    description: 'Corrects a decision (full UUID or prefix): title, description or category.',
    mode: 'standard',
    hosted: 'amend_decision',
    args: {
      decision_id: z.string().min(1),
      title: z.string().min(1).max(500).optional(),
      description: z.string().min(1).max(20_000).optional(),
      category: Category,
    },
    annotations: overwrite,
    toHosted: (a) => ({ ...a }),
  }),
  localTool({
    name: 'retract_decision',
    title: 'Retract a decision',
    description: 'Withdraws a decision, keeping the record and the reason.',
    mode: 'standard',
    hosted: 'retract_decision',
    args: { decision_id: z.string().min(1), reason: z.string().max(2000).optional() },
    annotations: overwrite,
    toHosted: (a) => ({ ...a }),
  }),
];

const all: AnyTool[] = [
  localTool({
    name: 'analyze_complexity',
    title: 'Analyze story complexity',
    description:
      'Complexity scores (1-10) with the reasoning, risks and a suggested effort; defaults to every story not done. Nothing is saved.',
    mode: 'all',
    hosted: 'analyze_complexity',
    args: { story_ids: z.array(StoryRef).max(500).optional() },
    annotations: Annotations.query,
    toHosted: (a) => ({ ...a }),
    names: (a) => a.story_ids ?? [],
  }),
  localTool({
    name: 'research',
    title: 'Research a question',
    description:
      "Searches the linked project's own stories, criteria, notes, decisions and history for a question. Nothing is saved.",
    mode: 'all',
    hosted: 'research',
    args: { query: z.string().min(1).max(2000) },
    annotations: Annotations.query,
    toHosted: (a) => ({ ...a }),
  }),
  localTool({
    name: 'import_prd',
    title: 'Import PRD document',
    description:
      'Parses a PRD into a story structure by its Markdown structure (no language model). Saves nothing: create the stories you want with create_story.',
    mode: 'all',
    hosted: 'import_prd',
    args: {
      prd: z.string().min(1).max(500_000),
      format: z.enum(['PRD', 'Markdown', 'text']).optional(),
    },
    annotations: Annotations.query,
    toHosted: (a) => ({ ...a }),
  }),
];

export const localTools: AnyTool[] = [...core, ...standard, ...all];
