import type { CiStatus, StoryTest } from '../../events/storymap/index.js';
import { requireCapability, type Caller } from './access.js';
import { on } from './build-claim.js';
import type { CaseStatus, JunitCase } from './junit.js';
import type { StoryEvent, StoryState } from './story-state.js';

/**
 * CI results on a story's tests (contracts/storymap.md: save_tests' `file` and `full_name` are
 * "as JUnit reports them … set with file to match CI results"). A case matches a test when
 * - the test's full_name is one of the case's names: `name`, or `classname` and `name` joined
 *   by a space, " > ", ".", "::" or "#" (vitest and jest-junit write the whole title in
 *   `name`; Surefire, pytest and others split it across classname and name), and
 * - the test's file, when it names one, is the case's file: its `file` attribute or its
 *   suite's, else a classname or suite name that is a path (vitest names suites by file).
 *   Paths match when equal or when one ends with the other at a `/` (CI often reports
 *   absolute paths); a report that names no file at all is matched by name alone.
 * A test several cases match (a parametrised test) takes the worst: error, fail, pass, skipped.
 */
export type CiData = {
  caller: Caller;
  now: string;
  report_id: string;
  run_at: string | null;
  cases: JunitCase[];
};

const SEPARATORS = [' ', ' > ', '.', '::', '#'];
const SOURCE = /\.(?:[cm]?[jt]sx?|py|rb|go|java|kt|kts|scala|cs|fs|php|rs|swift|exs?|dart)$/i;

export const caseNames = (c: JunitCase): string[] =>
  c.classname ? [c.name, ...SEPARATORS.map((s) => `${c.classname}${s}${c.name}`)] : [c.name];

const normal = (path: string) => path.replace(/\\/g, '/').replace(/^\.\//, '');
const isPath = (s: string) => s.includes('/') || s.includes('\\') || SOURCE.test(s);
const samePath = (a: string, b: string) => {
  const [x, y] = [normal(a), normal(b)];
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
};

const filesOf = (c: JunitCase): string[] =>
  c.file ? [c.file] : [c.classname, ...c.suites].filter((s) => s && isPath(s));

export const caseMatches = (t: Pick<StoryTest, 'file' | 'full_name'>, c: JunitCase): boolean => {
  if (!t.full_name || !caseNames(c).includes(t.full_name.trim())) return false;
  if (!t.file) return true;
  const files = filesOf(c);
  return files.length === 0 || files.some((f) => samePath(f, t.file!));
};

const WORST: CaseStatus[] = ['error', 'fail', 'pass', 'skipped'];

/** Each of `tests` that some case matches, with its CI status. */
export const ciResultsFor = (tests: readonly StoryTest[], cases: readonly JunitCase[]) =>
  tests.flatMap((t) => {
    const matched = cases.filter((c) => caseMatches(t, c));
    if (matched.length === 0) return [];
    const worst = matched.reduce((a, b) =>
      WORST.indexOf(b.status) < WORST.indexOf(a.status) ? b : a,
    );
    return [
      {
        test_id: t.test_id,
        status: worst.status as CiStatus,
        message: worst.message,
        cases: matched.length,
      },
    ];
  });

/**
 * Records the report's results on the story's matching tests. A report the story has already
 * recorded, a cancelled story and a story none of whose tests the report names record nothing.
 */
export const decideCiResults = (s: StoryState, d: CiData): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  if (s.cancelled || s.build.ci_reports.includes(d.report_id)) return [];
  const results = ciResultsFor([...s.build.tests.values()], d.cases);
  if (results.length === 0) return [];
  return [
    {
      type: 'story.ci_results_recorded',
      data: {
        ...on(s),
        report_id: d.report_id,
        run_at: d.run_at,
        results,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};
