import { cwd } from 'node:process';
import { z } from 'zod';
import { hostSandbox, localFilePath } from '../../app/project/host-root.js';
import { storymap } from '../../app/storymap/index.js';
import { saveDesign } from '../../app/storymap/design.js';
import { getDesign } from '../../app/storymap/design-fetch.js';
import { proposeDriftFix } from '../../app/storymap/drift.js';
import { research } from '../../app/storymap/research.js';
import type { RootCandidates } from '../../app/storymap/root.js';
import { scoreComplexity } from '../../commands/storymap/complexity.js';
import { DesignKind } from '../../events/storymap/index.js';
import { clientRoots } from '../client-roots.js';
import type { AnyTool, ToolContext } from '../tool.js';
import { read, result, StoryRef, write, type Call } from './define.js';

/**
 * The directories a call can name, in order: the host's sandbox directory, the client's roots,
 * the server's working directory. Only one the project is bound to is ever read.
 */
const candidatesOf =
  (ctx: ToolContext): RootCandidates =>
  async () => {
    const sandbox = hostSandbox(ctx.call.meta)?.cwd;
    // the host named its directory: nothing else is asked (as intent's root resolution does)
    if (sandbox !== undefined) return [sandbox];
    const roots = await clientRoots(ctx.call);
    return [...roots.map((r) => localFilePath(r.uri)), cwd()].filter(
      (p): p is string => p !== undefined,
    );
  };

const complexityOf = async (call: Call, projectId: string, refs: readonly string[] | undefined) => {
  const reads = storymap(call.app).reads;
  await reads.map(projectId, call.principal);
  const rows = await reads.rows(projectId);
  const chosen = refs
    ? await Promise.all(refs.map((r) => reads.resolve(projectId, r)))
    : await Promise.all(
        rows
          .filter((r) => r.cancelled_at === null && r.status !== 'done' && r.status !== 'approved')
          .map(async (r) => (await reads.story(projectId, r.id))!),
      );
  return chosen.map((s) => ({
    story_id: s.id,
    key: s.key,
    title: s.title,
    ...scoreComplexity({
      key: s.key,
      title: s.title,
      effort: s.effort,
      text: [s.user_story.as_a, s.user_story.i_want, s.user_story.so_that, s.notes]
        .filter(Boolean)
        .join('\n'),
      criteria: s.acceptance_criteria,
      depends_on: s.depends_on.length,
      dependents: rows.filter((r) => r.depends_on.includes(s.id) && r.cancelled_at === null).length,
    }),
  }));
};

/** The hosted tools the hosted product served with a service, answered here without one. */
export const extraTools: AnyTool[] = [
  write({
    name: 'save_design',
    title: 'Attach a design reference',
    overwrites: true,
    description:
      'Attaches a design reference to a story: a Figma frame, a claude.ai design, an image, a Storybook story, or a repo-relative path (kind inferred from the URL when left out; selector taken from the URL where possible). Existing references stay. Returns ref and design_refs_count, or already_attached: true with the existing reference.',
    args: {
      story_id: StoryRef,
      url: z.string().min(1).max(2000),
      kind: DesignKind.optional(),
      selector: z.string().max(500).optional(),
    },
    output: result({ ref: z.unknown(), design_refs_count: z.number() }),
    run: async (args, call) => {
      const r = await saveDesign(call.app, args, call.principal);
      const summary = r.result.already_attached
        ? `already attached to ${r.result.story_key}`
        : `${r.result.ref.kind} design attached to ${r.result.story_key}`;
      return { result: r.result, summary, ...(r.position > 0 ? { position: r.position } : {}) };
    },
  }),
  write({
    name: 'get_design',
    title: 'Fetch a design reference',
    description:
      "Fetches a story's design. A repo-path reference is read from the repository bound to the project (`intentlog founder root`) and found among the client's roots or the server's working directory: content (the first 50,000 characters), content_type, fetched_at, content_hash and drifted (the file changed since an earlier fetch); only the hash and time are stored. Figma and Claude designs are not fetched: this local server reaches no network service, and says so.",
    args: { story_id: StoryRef, ref_id: z.string().min(1).max(100).optional() },
    output: result({ ref_id: z.string(), kind: z.string(), url: z.string() }),
    run: async (args, call) => {
      const r = await getDesign(call.app, args, call.principal, candidatesOf(call.ctx));
      const summary = r.result.fetched
        ? `${r.result.url} fetched${r.result.drifted ? ' (drifted since the last fetch)' : ''}`
        : `${r.result.url}: nothing fetched`;
      return { result: r.result, summary, ...(r.position > 0 ? { position: r.position } : {}) };
    },
  }),
  read({
    name: 'analyze_complexity',
    title: 'Analyze story complexity',
    description:
      "Scores stories' complexity from 1 to 10 with no language model: the stated effort is the base, then criteria, dependencies and risky areas (auth, payments, migrations, concurrency, external services, files, privacy) add to it. Per story: score, reasoning, risks, suggested_effort. Defaults to every story not done. Nothing is saved.",
    args: { story_ids: z.array(StoryRef).min(1).max(500).optional() },
    output: result({ stories: z.array(z.unknown()) }),
    run: async (args, call) => {
      const stories = await complexityOf(call, args.project_id, args.story_ids);
      const text = stories
        .map(
          (s) =>
            `${s.key} ${s.score}/10 (suggest ${s.suggested_effort}): ${s.reasoning.join('; ')}`,
        )
        .join('\n');
      return { result: { stories, text }, summary: `${stories.length} stories scored` };
    },
  }),
  read({
    name: 'research',
    title: 'Research a question',
    description:
      "Researches a question against the project's own stories, criteria, notes, decisions and history: a ranked full-text search (no language model), answered as findings, recommendations, risks and next steps (text, and the same lists as fields). Nothing is saved.",
    args: { query: z.string().min(1).max(2000) },
    output: result({ text: z.string(), findings: z.array(z.string()) }),
    run: async (args, call) => {
      const r = await research(call.app, args.project_id, args.query, call.principal);
      return { result: r, summary: `${r.total_matches} matches for "${r.query}"` };
    },
  }),
  read({
    name: 'propose_drift_fix',
    title: 'Propose drift fix',
    description:
      'Proposes how to settle a built story that drifted: compares its implemented_files with the bound repository\'s git history since it was built and its uncommitted diff, and its spec\'s changes since. Returns text with the drift, the verdict (update_spec or rework), the reasoning, and the spec changes or rework instruction; a story with no drift says so, and without a bound git repository or implemented_files the answer is "no drift data". Nothing is written.',
    args: { story_id: StoryRef },
    output: result({ text: z.string() }),
    run: async (args, call) => {
      const r = await proposeDriftFix(call.app, args, call.principal, candidatesOf(call.ctx));
      return { result: r, summary: r.verdict ? `${r.key}: ${r.verdict}` : r.text };
    },
  }),
];
