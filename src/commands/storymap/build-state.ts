import type { CriterionStatus, StoryTest } from '../../events/storymap/index.js';
import type {
  Blocker,
  BuildRecord,
  CiResult,
  Claim,
  CriterionResult,
  Feedback,
  Handoff,
  Plan,
} from '../../events/storymap/build-record.js';
import { PersistentMap } from '../persistent-map.js';

/**
 * A story's building record as its stream's decider holds it (issue 39): everything that grows
 * with the story's history (tests, results, CI results, feedback, blockers, hand-offs) is a map
 * keyed by id, and what a rule looks up is an index the fold keeps (the tests of a criterion, a
 * test by its file and full name, the open blockers), so an event changes a few entries in O(1)
 * and a command costs the same on a story of 30 events and of 3,000. The maps iterate in the
 * order their entries were first added, the order the answers list them in.
 *
 * The read model keeps the same record per item (projections/storymap/stories.ts); `build-record`
 * is the plain shape both are compared with (test/storymap/build-state.property.test.ts).
 */
export type BuildState = {
  claim: Claim | null;
  plan: Plan | null;
  /** by test id, in the order saved */
  tests: PersistentMap<string, StoryTest>;
  /** each test's place in `tests`, to keep `byName` in that order */
  ordinals: PersistentMap<string, number>;
  /** criterion id → the tests linked to it */
  testsOf: PersistentMap<string, PersistentMap<string, true>>;
  /** tests linked to no criterion */
  unlinked: PersistentMap<string, true>;
  /** `nameKey(file, full_name)` → the ids of the tests with that file and full name, in order */
  byName: PersistentMap<string, readonly string[]>;
  /** each criterion's latest result */
  results: PersistentMap<string, CriterionResult>;
  /** each test's latest CI result */
  ci: PersistentMap<string, CiResult>;
  /** the reports recorded on this story, newest last (at most CI_REPORTS_KEPT) */
  ci_reports: readonly string[];
  /** by feedback id, in the order requested */
  feedback: PersistentMap<string, Feedback>;
  /**
   * The open sets below map an id to its place among its kind: an older state (the fold cache
   * hands them on) may iterate a key that came back last, so their lists sort by place.
   */
  /** feedback without a reply yet */
  unanswered: PersistentMap<string, number>;
  blockers: PersistentMap<string, Blocker>;
  openBlockers: PersistentMap<string, number>;
  handoffs: PersistentMap<string, Handoff>;
  openHandoffs: PersistentMap<string, number>;
  pr_url: string | null;
  pr_number: number | null;
  completed_at: string | null;
  /** when the story was last completed with force, the must criteria it left unmet */
  forced_unmet: { criterion_id: string; state: string }[];
};

export const initialBuildState = (): BuildState => ({
  claim: null,
  plan: null,
  tests: PersistentMap.empty(),
  ordinals: PersistentMap.empty(),
  testsOf: PersistentMap.empty(),
  unlinked: PersistentMap.empty(),
  byName: PersistentMap.empty(),
  results: PersistentMap.empty(),
  ci: PersistentMap.empty(),
  ci_reports: [],
  feedback: PersistentMap.empty(),
  unanswered: PersistentMap.empty(),
  blockers: PersistentMap.empty(),
  openBlockers: PersistentMap.empty(),
  handoffs: PersistentMap.empty(),
  openHandoffs: PersistentMap.empty(),
  pr_url: null,
  pr_number: null,
  completed_at: null,
  forced_unmet: [],
});

/** The key a test is found by when a report or CI names it: its file and full name. */
export const nameKey = (file: string | null, fullName: string): string =>
  JSON.stringify([file, fullName]);

/** The first test (in saved order) with this file and full name. */
export const testNamed = (
  b: BuildState,
  file: string | null,
  fullName: string,
): StoryTest | undefined => {
  const id = b.byName.get(nameKey(file, fullName))?.[0];
  return id === undefined ? undefined : b.tests.get(id);
};

export const testsOf = (b: BuildState, criterionId: string): number =>
  b.testsOf.get(criterionId)?.size ?? 0;

export const resultStatus = (b: BuildState, criterionId: string): CriterionStatus | undefined =>
  b.results.get(criterionId)?.status;

/** The tests linked to no criterion, in saved order. */
export const unlinkedTests = (b: BuildState): string[] =>
  [...b.unlinked.keys()].sort((x, y) => b.ordinals.get(x)! - b.ordinals.get(y)!);

/** The open blockers' and hand-offs' ids, oldest first. */
export const openBlockerIds = (b: BuildState): string[] => inPlace(b.openBlockers);
export const openHandoffIds = (b: BuildState): string[] => inPlace(b.openHandoffs);
/** The feedback without a reply, oldest first. */
export const unansweredIds = (b: BuildState): string[] => inPlace(b.unanswered);

const inPlace = (open: ReadonlyMap<string, number>): string[] =>
  [...open].sort((x, y) => x[1] - y[1]).map(([id]) => id);

/** The record in its plain shape (build-record.ts): what the read model's fold makes of it. */
export const buildRecordOf = (b: BuildState): BuildRecord => ({
  claim: b.claim,
  plan: b.plan,
  feedback: [...b.feedback.values()],
  tests: [...b.tests.values()],
  results: Object.fromEntries(b.results.entries()),
  blockers: [...b.blockers.values()],
  handoffs: [...b.handoffs.values()],
  pr_url: b.pr_url,
  pr_number: b.pr_number,
  completed_at: b.completed_at,
  forced_unmet: b.forced_unmet,
  ci: Object.fromEntries(b.ci.entries()),
  ci_reports: [...b.ci_reports],
});
