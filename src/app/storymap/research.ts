import type { SearchResult } from 'minisearch';
import { invalidArgument } from '../../commands/errors.js';
import type { Principal } from '../../commands/principal.js';
import type { DecisionView, StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { perApp } from '../per-app.js';
import { researchIndexes, storyDoc } from './research-index.js';
import { storymap } from './index.js';

const indexes = perApp(researchIndexes);

/** How many ranked matches a research answer reads. */
export const RESEARCH_HITS = 8;

type Hit =
  | { kind: 'story'; score: number; fields: string[]; story: StoryView; snippet: string }
  | { kind: 'decision'; score: number; fields: string[]; decision: DecisionView; snippet: string };

const clip = (text: string, max = 160) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

/** The first line of the document that holds a matched term: why the story came up. */
const snippetOf = (lines: readonly string[], terms: readonly string[]) => {
  const hit = lines.find((l) => terms.some((t) => l.toLowerCase().includes(t)));
  return clip((hit ?? lines[0] ?? '').replace(/\s+/g, ' ').trim());
};

const fieldsOf = (r: SearchResult) => [...new Set(Object.values(r.match).flat())];

const hitsOf = async (
  app: App,
  projectId: string,
  results: SearchResult[],
  decisions: ReadonlyMap<string, DecisionView>,
): Promise<Hit[]> => {
  const reads = storymap(app).reads;
  const hits = await Promise.all(
    results.slice(0, RESEARCH_HITS).map(async (r): Promise<Hit | undefined> => {
      const [kind, id] = [r.kind as string, String(r.id).slice(String(r.id).indexOf(':') + 1)];
      if (kind === 'decision') {
        const decision = decisions.get(id);
        const lines = decision ? [decision.title, decision.description] : [];
        return (
          decision && {
            kind,
            score: r.score,
            fields: fieldsOf(r),
            decision,
            snippet: snippetOf(lines, r.terms),
          }
        );
      }
      const story = await reads.story(projectId, id);
      if (!story) return undefined;
      const d = storyDoc(story);
      const lines = [d.title, ...d.criteria.split('\n'), ...d.notes.split('\n'), d.body];
      return {
        kind: 'story',
        score: r.score,
        fields: fieldsOf(r),
        story,
        snippet: snippetOf(lines, r.terms),
      };
    }),
  );
  return hits.filter((h): h is Hit => h !== undefined);
};

const finding = (h: Hit) =>
  h.kind === 'story'
    ? `${h.story.key} "${h.story.title}" (${h.story.cancelled_at ? 'cancelled' : h.story.status}; matched ${h.fields.join(', ')}): ${h.snippet}`
    : `Decision "${h.decision.title}" (${h.decision.category}${h.decision.retracted ? ', retracted' : ''}): ${h.snippet}`;

const TO_BUILD = new Set(['todo', 'ready_for_dev', 'needs_rework']);

/** Recommendations, risks and next steps, read off the matched stories and decisions. */
const adviceOf = (hits: readonly Hit[], query: string) => {
  const stories = hits.flatMap((h) => (h.kind === 'story' ? [h.story] : []));
  const live = stories.filter((s) => !s.cancelled_at);
  const decisions = hits.flatMap((h) => (h.kind === 'decision' ? [h.decision] : []));
  const recommendations: string[] = [];
  const risks: string[] = [];
  const next_steps: string[] = [];
  const toBuild = live.filter((s) => TO_BUILD.has(s.status));
  const building = live.filter((s) => s.status === 'in_progress');
  const built = live.filter((s) => s.status === 'done' || s.status === 'approved');
  if (building.length > 0)
    recommendations.push(
      `Coordinate with the work in progress on ${building.map((s) => s.key).join(', ')} before changing the same area.`,
    );
  if (toBuild.length > 0)
    recommendations.push(
      `${toBuild.map((s) => s.key).join(', ')} already describe${toBuild.length === 1 ? 's' : ''} this: build on ${toBuild.length === 1 ? 'it' : 'them'} rather than adding a new story.`,
    );
  if (built.length > 0)
    recommendations.push(
      `Reuse what ${built.map((s) => s.key).join(', ')} built${built.some((s) => s.implemented_files.length > 0) ? ` (files: ${[...new Set(built.flatMap((s) => s.implemented_files))].slice(0, 6).join(', ')})` : ''}.`,
    );
  for (const d of decisions.filter((x) => !x.retracted))
    recommendations.push(`Follow the decision "${d.title}".`);
  for (const s of live.filter((x) => x.acceptance_criteria.length === 0))
    risks.push(`${s.key} has no acceptance criteria: "done" is undefined.`);
  for (const s of live.filter(
    (x) =>
      x.acceptance_criteria.length > 0 && !x.acceptance_criteria.some((c) => c.priority === 'must'),
  ))
    risks.push(`${s.key} has no must criteria.`);
  for (const s of live.filter((x) => x.spec_changed_since_built))
    risks.push(`${s.key}'s spec changed after it was built: the code may no longer match.`);
  for (const s of live.filter((x) => x.status === 'needs_rework'))
    risks.push(`${s.key} needs rework.`);
  for (const s of stories.filter((x) => x.cancelled_at))
    risks.push(
      `${s.key} was cancelled${s.cancellation_reason ? ` (${s.cancellation_reason})` : ''}: don't build on it.`,
    );
  for (const d of decisions.filter((x) => x.retracted))
    risks.push(
      `The decision "${d.title}" was retracted${d.retraction_reason ? ` (${d.retraction_reason})` : ''}.`,
    );
  const blocked = live.filter((s) => s.depends_on.length > 0 && TO_BUILD.has(s.status));
  for (const s of blocked)
    risks.push(
      `${s.key} depends on ${s.depends_on.length} other stor${s.depends_on.length === 1 ? 'y' : 'ies'}: check they are built first.`,
    );
  if (hits.length === 0) {
    recommendations.push(
      `Nothing in this project mentions "${query}" yet: if it matters, add a story (create_stories) or record a decision (log_decision).`,
    );
    next_steps.push('Try other words, or list_stories to browse the map.');
  }
  const first = hits[0];
  if (first?.kind === 'story')
    next_steps.push(`Read ${first.story.key} in full: get_story ${first.story.key}.`);
  if (toBuild[0])
    next_steps.push(`Start ${toBuild[0].key} with start_story (or next_in_run inside a run).`);
  if (decisions.length === 0 && hits.length > 0)
    next_steps.push('Record what you decide with log_decision, so the next research finds it.');
  return { recommendations, risks, next_steps };
};

const section = (title: string, lines: readonly string[]) =>
  [`## ${title}`, ...(lines.length > 0 ? lines.map((l) => `- ${l}`) : ['- none'])].join('\n');

/**
 * research: a ranked full-text search of the project's own stories, criteria, notes, decisions
 * and history (no language model), answered as findings, recommendations, risks and next steps.
 */
export const research = async (
  app: App,
  projectId: string,
  query: string,
  principal: Principal,
) => {
  const q = query.trim();
  if (!q) throw invalidArgument('query must be a non-empty string', { field: 'query' });
  const { map } = await storymap(app).reads.map(projectId, principal);
  const index = await indexes(app).indexOf(projectId, map);
  const results = index.search(q);
  const decisions = new Map(map.decisions.map((d) => [d.decision_id, d]));
  const hits = await hitsOf(app, projectId, results, decisions);
  const findings = hits.map(finding);
  const advice = adviceOf(hits, q);
  const text = [
    `# Research: ${q}`,
    `${results.length} match${results.length === 1 ? '' : 'es'} in ${map.name}'s stories, criteria, notes, decisions and history${results.length > hits.length ? `; the ${hits.length} best read` : ''}.`,
    section('Findings', findings),
    section('Recommendations', advice.recommendations),
    section('Risks', advice.risks),
    section('Next steps', advice.next_steps),
  ].join('\n\n');
  return {
    query: q,
    text,
    findings,
    ...advice,
    matches: hits.map((h) => ({
      kind: h.kind,
      ref: h.kind === 'story' ? h.story.key : h.decision.decision_id,
      score: Math.round(h.score * 100) / 100,
      matched: h.fields,
    })),
    total_matches: results.length,
  };
};
