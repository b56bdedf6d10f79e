import type { CiStatus } from './build-events.js';
import type { CriterionStatus, PlanConflict, PlanStep, StoryTest } from './index.js';
import { own } from '../own.js';

/** The building record's CI part: each test's latest result from a JUnit import. */
export type CiResult = {
  status: CiStatus;
  message: string | null;
  report_id: string;
  run_at: string | null;
  at: string;
};

/**
 * A story's building record — claim, plan, review, tests, results, blockers, hand-offs, pull
 * request — as storymap/build-fold.ts folds it from the story's stream.
 */
export type Claim = {
  session_id: string;
  by: string;
  client: string | null;
  claimed_at: string;
  /** the holder's last write on the story: a claim quiet for long enough may be taken over */
  last_seen_at: string;
};

export type PlanReview = 'awaiting' | 'approved' | 'changes_requested';

export type Plan = {
  version: number;
  steps: PlanStep[];
  /** the highest step number ever given (s1, s2, …): a dropped step's id is never reused */
  last_step: number;
  questions: { text: string; options: string[] }[];
  risk: string | null;
  review: PlanReview;
  /** conflicts of this version: steps a person edited that the save reworded or dropped */
  conflicts: PlanConflict[];
  saved_by: string;
  saved_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  /** the spec (criteria, title) moved after the plan was approved */
  spec_changed_since_approval: boolean;
};

export type Feedback = {
  feedback_id: string;
  text: string;
  step_id: string | null;
  plan_version: number;
  requested_by: string;
  requested_at: string;
  /** the agent's reply in save_plan's responses, once given */
  reply: string | null;
};

export type CriterionResult = {
  status: CriterionStatus;
  detail: string | null;
  caveat: string | null;
  attempt: number;
  at: string;
  by: string;
};

export type Blocker = {
  blocker_id: string;
  summary: string;
  attempting: string;
  failing: string;
  decision_needed: string;
  criterion_id: string | null;
  attempts: number;
  raised_by: string;
  raised_at: string;
  cleared_at: string | null;
  cleared_by: string | null;
  decision: string | null;
};

export type Handoff = {
  handoff_id: string;
  action: string;
  detail: string | null;
  step_id: string | null;
  raised_by: string;
  raised_at: string;
  cleared_at: string | null;
  cleared_by: string | null;
  note: string | null;
};

export type BuildRecord = {
  claim: Claim | null;
  plan: Plan | null;
  feedback: Feedback[];
  tests: StoryTest[];
  results: Record<string, CriterionResult>;
  blockers: Blocker[];
  handoffs: Handoff[];
  pr_url: string | null;
  pr_number: number | null;
  completed_at: string | null;
  /** when the story was last completed with force, the must criteria it left unmet */
  forced_unmet: { criterion_id: string; state: string }[];
  /** each test's latest CI result, by test id */
  ci: Record<string, CiResult>;
  /** the reports recorded on this story, newest last (at most CI_REPORTS_KEPT) */
  ci_reports: string[];
};

export const initialBuild = (): BuildRecord => ({
  claim: null,
  plan: null,
  feedback: [],
  tests: [],
  results: {},
  blockers: [],
  handoffs: [],
  pr_url: null,
  pr_number: null,
  completed_at: null,
  forced_unmet: [],
  ci: {},
  ci_reports: [],
});

/** The latest result of every criterion; undefined for one never reported. */
export const resultOf = (b: BuildRecord, criterionId: string): CriterionResult | undefined =>
  own(b.results, criterionId);

/** The latest CI result of a test; undefined for one no report named. */
export const ciOf = (b: BuildRecord, testId: string) => own(b.ci, testId);

/** Open blockers and hand-offs: raised and not cleared. */
export const openBlockers = (b: BuildRecord) => b.blockers.filter((x) => x.cleared_at === null);
export const openHandoffs = (b: BuildRecord) => b.handoffs.filter((x) => x.cleared_at === null);
