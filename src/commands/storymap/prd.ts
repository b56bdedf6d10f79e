import type { CriterionInput } from './criteria.js';
import { DEFAULT_ACTIVITY } from './batch.js';

/**
 * import_prd without a language model: the Markdown's structure is the proposal, line by line,
 * so the same text always gives the same proposal (contracts/storymap.md says "with AI"; this
 * ledger has none, and says so in the answer's summary). The rules, in the order they apply:
 * - a heading (`#`…`######`) is an activity, named by its text; the one exception is a document
 *   title: a heading alone at the shallowest level, with deeper headings under it, is not an
 *   activity (`# Photo Book` over `## Share`, `## Print`). Stories before any heading go to
 *   the activity "General";
 * - a list item (`-`, `*`, `+`, `1.`, `1)`, an optional `[ ]`/`[x]` box) indented less than two
 *   spaces is a story, titled by its text;
 * - under a story, a line starting with Given, When or Then (any case, list marker or not, `:`
 *   optional) is part of a criterion; `And` continues the part before it; a Given or When after
 *   a Then starts the next criterion;
 * - under a story, a nested list item that is none of those is a criterion as it stands;
 * - anything else (paragraphs, tables, lines inside ``` or ~~~ fences) is left out, and an
 *   activity with no story is dropped. Every criterion is `should`: priorities are the
 *   founder's call. `steps` are always empty: Markdown has no level for them.
 * The `format` argument (PRD, Markdown, text) does not change the rules.
 */
export type PrdStory = { title: string; acceptance_criteria: CriterionInput[] };
export type PrdActivity = { name: string; steps: string[]; stories: PrdStory[] };

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
const GWT = /^\s*(?:[-*+]\s+)?(given|when|then|and)\b[\s:,]*(.*)$/i;

const criterion = (parts: { given?: string; when?: string; then?: string }): CriterionInput => ({
  text: [
    parts.given && `Given ${parts.given}`,
    parts.when && `when ${parts.when}`,
    parts.then && `then ${parts.then}`,
  ]
    .filter(Boolean)
    .join(', '),
  priority: 'should',
  given: parts.given ?? null,
  when: parts.when ?? null,
  then: parts.then ?? null,
  verification: null,
});

type Parser = {
  activities: PrdActivity[];
  story?: PrdStory;
  gwt: { given?: string; when?: string; then?: string };
  last?: 'given' | 'when' | 'then';
};

const flush = (p: Parser) => {
  if (p.story && (p.gwt.given || p.gwt.when || p.gwt.then))
    p.story.acceptance_criteria.push(criterion(p.gwt));
  p.gwt = {};
  p.last = undefined;
};

const lane = (p: Parser): PrdActivity => {
  if (p.activities.length === 0)
    p.activities.push({ name: DEFAULT_ACTIVITY, steps: [], stories: [] });
  return p.activities[p.activities.length - 1]!;
};

const onGwt = (p: Parser, word: string, rest: string) => {
  const part =
    word.toLowerCase() === 'and' ? p.last : (word.toLowerCase() as 'given' | 'when' | 'then');
  if (!part) return;
  if (part !== 'then' && p.gwt.then) flush(p);
  p.gwt[part] = p.gwt[part] ? `${p.gwt[part]} and ${rest}` : rest;
  p.last = part;
};

/** The lines outside fenced code blocks (``` or ~~~, closed by a fence of the same kind). */
const unfenced = (lines: readonly string[]): string[] => {
  let fence: string | undefined;
  return lines.filter((line) => {
    const marker = FENCE.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker.slice(0, 3);
      return false;
    }
    return !fence;
  });
};

/** The level of the document's title: the first heading, when it alone is the shallowest. */
const titleLevel = (levels: readonly number[]): number => {
  const top = Math.min(...levels);
  const lone = levels.length > 1 && levels.filter((n) => n === top).length === 1;
  return lone && levels[0] === top ? top : 0;
};

export const parsePrd = (text: string): PrdActivity[] => {
  const lines = unfenced(text.split(/\r?\n/));
  const title = titleLevel(
    lines.map((l) => HEADING.exec(l)?.[1]?.length).filter((n): n is number => n !== undefined),
  );
  const p: Parser = { activities: [], gwt: {} };
  for (const line of lines) {
    const heading = HEADING.exec(line);
    const gwt = GWT.exec(line);
    const item = ITEM.exec(line);
    if (heading) {
      flush(p);
      p.story = undefined;
      if (heading[1]!.length !== title)
        p.activities.push({ name: heading[2]!.trim(), steps: [], stories: [] });
    } else if (gwt && p.story) onGwt(p, gwt[1]!, gwt[2]!.trim());
    else if (item && item[1]!.length < 2) {
      flush(p);
      p.story = { title: item[2]!.trim(), acceptance_criteria: [] };
      lane(p).stories.push(p.story);
    } else if (item && p.story) {
      flush(p);
      p.story.acceptance_criteria.push({ ...criterion({}), text: item[2]!.trim() });
    }
  }
  flush(p);
  return p.activities.filter((a) => a.stories.length > 0);
};
