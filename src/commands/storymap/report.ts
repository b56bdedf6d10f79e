import { storyMapError } from './access.js';

/**
 * A brownfield report: Markdown whose `#` headings name sections. The contract leaves its
 * format open; ours reads two sections — "Users" (the one vision answer a codebase can give)
 * and "Existing features" (each bullet a story) — and ignores the rest.
 */
export type BrownfieldReport = { sections: Map<string, string[]> };

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/;

export const USERS_SECTIONS = ['users', 'who uses it', 'target users', 'audience'];
export const FEATURES_SECTIONS = ['existing features', 'features'];

/** Parses a report, refusing with `invalid_report` and the problems when nothing is readable. */
export const parseReport = (report: string): BrownfieldReport => {
  const problems: string[] = [];
  if (report.trim() === '') problems.push('the report is empty');
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of report.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      current = [];
      sections.set(heading[1]!.toLowerCase(), current);
    } else if (current && line.trim() !== '') current.push(line);
  }
  if (problems.length === 0 && sections.size === 0)
    problems.push(
      'no sections found: a brownfield report is Markdown with headings such as "## Users" and "## Existing features"',
    );
  if (problems.length > 0)
    throw storyMapError('invalid_report', `invalid_report: ${problems.join('; ')}`, {
      error: 'invalid_report',
      problems,
    });
  return { sections };
};

const section = (report: BrownfieldReport, names: readonly string[]): string[] | undefined => {
  for (const name of names) {
    const lines = report.sections.get(name);
    if (lines) return lines;
  }
  return undefined;
};

/** The users answer a report gives: its Users section as text, bullets joined. */
export const reportUsers = (report: BrownfieldReport): string | undefined => {
  const lines = section(report, USERS_SECTIONS);
  const text = lines?.map((l) => BULLET.exec(l)?.[1] ?? l.trim()).join('; ');
  return text ? text : undefined;
};

/** Feature titles: each bullet under "Existing features". */
export const reportFeatures = (report: BrownfieldReport): string[] =>
  (section(report, FEATURES_SECTIONS) ?? [])
    .map((l) => BULLET.exec(l)?.[1]?.trim())
    .filter((t): t is string => !!t);

/** Which of the two sections the report lacks, by their headings. */
export const missingSections = (report: BrownfieldReport): string[] => [
  ...(section(report, USERS_SECTIONS) ? [] : ['Users']),
  ...(section(report, FEATURES_SECTIONS) ? [] : ['Existing features']),
];
