import type { CriterionInput } from './criteria.js';
import { DEFAULT_ACTIVITY } from './batch.js';

/**
 * import_prd without a language model: the Markdown's structure is the proposal. Headings are
 * activities, top-level list items stories, and Given/When/Then lines under a story its
 * criteria (a nested item that is not one of those is a criterion as it stands).
 */
export type PrdStory = { title: string; acceptance_criteria: CriterionInput[] };
export type PrdActivity = { name: string; steps: string[]; stories: PrdStory[] };

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/;
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

export const parsePrd = (text: string): PrdActivity[] => {
  const lines = text.split(/\r?\n/);
  const headings = lines
    .map((l) => HEADING.exec(l)?.[1]?.length)
    .filter((n): n is number => n !== undefined);
  // a lone top heading over deeper ones is the document's title, not an activity
  const titleLevel =
    headings.filter((n) => n === Math.min(...headings)).length === 1 && headings.length > 1
      ? Math.min(...headings)
      : 0;
  const p: Parser = { activities: [], gwt: {} };
  for (const line of lines) {
    const heading = HEADING.exec(line);
    const gwt = GWT.exec(line);
    const item = ITEM.exec(line);
    if (heading) {
      flush(p);
      p.story = undefined;
      if (heading[1]!.length !== titleLevel)
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
