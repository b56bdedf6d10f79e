import type { CriterionStatus, StoryTest } from '../../events/storymap/index.js';
import { invalidArgument, notFound } from '../errors.js';
import { requireCapability, type Caller } from './access.js';
import { decideStart, on, refuseCancelled, TO_BUILD, type SessionRef } from './build-claim.js';
import { checkVersion } from './story.js';
import type { StoryEvent, StoryState } from './story-state.js';
import { testNamed, testsOf, unlinkedTests } from './build-state.js';

type TestType = StoryTest['test_type'];
export type TestInput = {
  id?: string;
  title?: string;
  steps?: string;
  expected_result?: string;
  test_type?: TestType;
  criterion_ids?: string[];
  file?: string;
  full_name?: string;
};

const validIds = (s: StoryState) => s.criteria.map((c) => ({ id: c.criterion_id, text: c.text }));

/** New tests and tests whose links were set, as one `story.tests_saved` event (or none). */
const testsEvent = (
  s: StoryState,
  added: StoryTest[],
  updated: StoryTest[],
  meta: { caller: Caller; session_id: string | null; now: string },
): StoryEvent[] =>
  added.length + updated.length === 0
    ? []
    : [
        {
          type: 'story.tests_saved',
          data: {
            ...on(s),
            added,
            updated,
            session_id: meta.session_id,
            by: meta.caller.actor_id,
            at: meta.now,
          },
        },
      ];

export type SaveTestsData = {
  caller: Caller;
  session_id: string | null;
  now: string;
  tests: TestInput[];
  /** one fresh id per test in `tests` (used for those without an id) */
  new_ids: string[];
};

/** Every id checked before anything is saved: full criterion ids, test ids of this story. */
const checkTestRefs = (s: StoryState, tests: readonly TestInput[]) => {
  const criteria = new Set(s.criteria.map((c) => c.criterion_id));
  const own = s.build.tests;
  const problems: string[] = [];
  tests.forEach((t, i) => {
    if (t.id !== undefined && !own.has(t.id))
      problems.push(`tests[${i}].id ${t.id} names no test on ${s.key}`);
    if (t.id === undefined && !t.title?.trim())
      problems.push(`tests[${i}].title is required for a new test`);
    for (const c of t.criterion_ids ?? [])
      if (!criteria.has(c))
        problems.push(`tests[${i}].criterion_ids: ${c} is not a live criterion of ${s.key}`);
  });
  if (problems.length > 0)
    throw invalidArgument(`No tests were saved: ${problems.join('; ')}.`, {
      problems,
      valid_criterion_ids: validIds(s),
      valid_test_ids: [...own.keys()],
    });
};

export const decideSaveTests = (s: StoryState, d: SaveTestsData): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  if (d.tests.length === 0) throw invalidArgument('tests must list at least one test');
  checkTestRefs(s, d.tests);
  const added: StoryTest[] = [];
  const updated = new Map<string, StoryTest>();
  d.tests.forEach((t, i) => {
    const links = t.criterion_ids && [...new Set(t.criterion_ids)];
    if (t.id !== undefined) {
      const current = updated.get(t.id) ?? s.build.tests.get(t.id)!;
      updated.set(t.id, {
        ...current,
        ...(t.title?.trim() ? { title: t.title.trim() } : {}),
        ...(t.steps !== undefined ? { steps: t.steps } : {}),
        ...(t.expected_result !== undefined ? { expected_result: t.expected_result } : {}),
        ...(t.test_type ? { test_type: t.test_type } : {}),
        ...(links ? { criterion_ids: links } : {}),
        ...(t.file !== undefined ? { file: t.file } : {}),
        ...(t.full_name !== undefined ? { full_name: t.full_name } : {}),
      });
      return;
    }
    added.push({
      test_id: d.new_ids[i]!,
      title: t.title!.trim(),
      steps: t.steps ?? null,
      expected_result: t.expected_result ?? null,
      test_type: t.test_type ?? 'functional',
      criterion_ids: links ?? [],
      file: t.file ?? null,
      full_name: t.full_name ?? null,
    });
  });
  return testsEvent(s, added, [...updated.values()], d);
};

/**
 * A criterion reference: a full id, or a prefix of at least 4 characters naming exactly one
 * criterion of the story. Returns the id, or the problem.
 */
export const resolveCriterion = (
  s: StoryState,
  ref: string,
): { id: string } | { problem: string } => {
  const exact = s.criteria.find((c) => c.criterion_id === ref);
  if (exact) return { id: exact.criterion_id };
  if (ref.length < 4) return { problem: `${ref}: a prefix needs at least 4 characters` };
  const matches = s.criteria.filter((c) => c.criterion_id.startsWith(ref));
  if (matches.length === 1) return { id: matches[0]!.criterion_id };
  return {
    problem:
      matches.length === 0
        ? `${ref} names no criterion of ${s.key}`
        : `${ref} names ${matches.length} criteria`,
  };
};

export type ResultInput = {
  criterion_id: string;
  status: CriterionStatus;
  detail?: string;
  caveat?: string;
  tests?: { file: string; full_name: string; title?: string }[];
};

export type ReportData = {
  caller: Caller;
  session_id: string | null;
  now: string;
  results: ResultInput[];
  expected_version?: number;
  /** fresh ids for tests named in results, one per named test in order */
  new_ids: string[];
  /** a story still to build is started and claimed for this session first */
  start?: { session: SessionRef; quiet_ms: number };
};

/** Every reference resolved, or the whole report refused with the valid ids. */
const resolveAll = (s: StoryState, results: readonly ResultInput[]): string[] => {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const ids = results.map((r) => {
    const found = resolveCriterion(s, r.criterion_id);
    if ('problem' in found) {
      problems.push(found.problem);
      return '';
    }
    const twice = seen.get(found.id);
    if (twice !== undefined)
      problems.push(`${r.criterion_id} and ${twice} name the same criterion (reported twice)`);
    seen.set(found.id, r.criterion_id);
    return found.id;
  });
  if (problems.length > 0)
    throw invalidArgument(`Nothing was saved: ${problems.join('; ')}.`, {
      problems,
      valid_ids: validIds(s),
    });
  return ids;
};

/** The tests a report names, saved as the story's tests (one per file and full name). */
const namedTests = (s: StoryState, ids: readonly string[], d: ReportData) => {
  const changed = new Map<string, StoryTest>();
  const fresh = new Set<string>();
  d.results.forEach((r, i) => {
    const criterion = ids[i]!;
    for (const t of r.tests ?? []) {
      const same = (x: StoryTest) => x.file === t.file && x.full_name === t.full_name;
      const test = [...changed.values()].find(same) ?? testNamed(s.build, t.file, t.full_name);
      if (test?.criterion_ids.includes(criterion)) continue;
      if (test) {
        changed.set(test.test_id, { ...test, criterion_ids: [...test.criterion_ids, criterion] });
        continue;
      }
      const test_id = d.new_ids[fresh.size]!;
      fresh.add(test_id);
      changed.set(test_id, {
        test_id,
        title: t.title?.trim() || t.full_name,
        steps: null,
        expected_result: null,
        test_type: 'functional',
        criterion_ids: [criterion],
        file: t.file,
        full_name: t.full_name,
      });
    }
  });
  const all = [...changed.values()];
  return {
    added: all.filter((t) => fresh.has(t.test_id)),
    updated: all.filter((t) => !fresh.has(t.test_id)),
  };
};

/** Each result becomes the criterion's latest, numbered by attempt. */
export const decideReport = (s: StoryState, d: ReportData): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  checkVersion(s, d.expected_version);
  if (d.results.length === 0) throw invalidArgument('results must list at least one result');
  const ids = resolveAll(s, d.results);
  const tests = namedTests(s, ids, d);
  const start =
    d.start && TO_BUILD.has(s.status)
      ? decideStart(s, { caller: d.caller, now: d.now, ...d.start })
      : [];
  return [
    ...start,
    ...testsEvent(s, tests.added, tests.updated, d),
    {
      type: 'criteria.reported',
      data: {
        ...on(s),
        results: d.results.map((r, i) => ({
          criterion_id: ids[i]!,
          status: r.status,
          detail: r.detail?.trim() || null,
          caveat: r.caveat?.trim() || null,
          attempt: (s.build.results.get(ids[i]!)?.attempt ?? 0) + 1,
        })),
        session_id: d.session_id,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};

/** Untested criteria and tests proving nothing, as get_story and save_tests show them. */
export const coverage = (s: Pick<StoryState, 'criteria' | 'build'>) => ({
  untested_criteria: s.criteria
    .filter((c) => testsOf(s.build, c.criterion_id) === 0)
    .map((c) => c.criterion_id),
  unlinked_tests: unlinkedTests(s.build),
});

/** A criterion a blocker names must be one of the story's (full id or prefix). */
export const blockedCriterion = (s: StoryState, ref: string | undefined): string | null => {
  if (ref === undefined) return null;
  const found = resolveCriterion(s, ref);
  if ('problem' in found)
    throw notFound(found.problem, { criterion_id: ref, valid_ids: validIds(s) });
  return found.id;
};
