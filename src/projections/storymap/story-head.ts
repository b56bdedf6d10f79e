import type { BuildRecord } from '../../events/storymap/build-record.js';
import type { StoryTest } from '../../events/storymap/index.js';
import type { Blocker, CiResult, Feedback, Handoff } from '../../events/storymap/build-record.js';
import { modelKey } from '../projector.js';
import type { StatusChange, StoryView } from './views.js';

/*
 * A story in the storymap.stories read model (issue 39): a head of bounded size — the view's
 * fields, the building record's claim, plan, latest results and pull request, and per criterion
 * the few figures its evidence is worked out from — and the lists that grow with the story's
 * history (tests, their CI results, plan feedback, blockers, hand-offs, status history) each
 * item under a key of its own. An event writes the head and the items it adds or changes, so
 * the bytes it writes do not grow with the story; story-reads.ts puts a view back together.
 */

/** The lists kept item by item, each in the order its items came. */
export type StoryList = 'tests' | 'feedback' | 'blockers' | 'handoffs' | 'history';
export type StoryItems = {
  tests: StoryTest;
  feedback: Feedback;
  blockers: Blocker;
  handoffs: Handoff;
  history: StatusChange;
};
export const STORY_LISTS: readonly StoryList[] = [
  'tests',
  'feedback',
  'blockers',
  'handoffs',
  'history',
];

/** The building record without its growing lists. */
export type BuildHead = Omit<BuildRecord, 'tests' | 'feedback' | 'blockers' | 'handoffs' | 'ci'>;

/** What a criterion's evidence is worked out from (projections/storymap/evidence.ts). */
export type CriterionFigures = {
  /** tests linked to it */
  tests: number;
  /** of those, the ones whose latest CI result fails or errs */
  failing: number;
  /** the newest CI pass of a linked test, and how many linked tests passed at that time */
  ci_pass_at: string | null;
  ci_pass_holders: number;
};

export type StoryHead = Omit<StoryView, 'history' | 'build'> & {
  build: BuildHead;
  /** how many items each list holds (an item's key is its place) */
  counts: Record<StoryList, number>;
  /** by criterion id */
  figures: Record<string, CriterionFigures>;
};

/** Keys of the items (storymap.stories/<kind>/<project>/<story>/…), apart from the heads'. */
export const StoryItemKeys = {
  item: (list: StoryList, p: string, s: string, n: number) =>
    modelKey(`s-${list}`, p, s, String(n)),
  /** where the item with this id sits in its list (tests, feedback, blockers, hand-offs) */
  place: (list: StoryList, p: string, s: string, id: string) => modelKey(`s-${list}-at`, p, s, id),
  ci: (p: string, s: string, testId: string) => modelKey('s-ci', p, s, testId),
};

export type CiRecord = Record<string, CiResult>;

export const buildHead = (): BuildHead => ({
  claim: null,
  plan: null,
  results: {},
  pr_url: null,
  pr_number: null,
  completed_at: null,
  forced_unmet: [],
  ci_reports: [],
});
