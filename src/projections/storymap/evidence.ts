import { ciOf, resultOf, type BuildRecord } from '../../events/storymap/build-record.js';
import type { CiStatus } from '../../events/storymap/index.js';

/**
 * What a story's evidence says beside each criterion's last result (contracts/storymap.md,
 * get_story and get_status), from what the log holds:
 * - `ci_regressed`: the story is done or approved and a test linked to the criterion now fails
 *   in CI (its latest JUnit result is a failure or an error);
 * - `tests_predate_code`: the criterion's newest passing evidence — its report_criteria pass, or
 *   a CI pass of a linked test — is more than an hour older than the story's latest code
 *   change, which here is when it was implemented (complete_story, or implementation fields
 *   set by update_stories; else when it was marked done). The hosted product compares with the
 *   linked PR's latest commit; no GitHub reaches this ledger, so the implementation time
 *   stands for it. The hour is the one check_release_readiness names, so a report made while
 *   building, minutes before complete_story, never counts as stale.
 */
export const PREDATE_MS = 60 * 60 * 1000;

const failing = (s: CiStatus | undefined) => s === 'fail' || s === 'error';

export type CriterionEvidence = {
  ci_regressed: boolean;
  tests_predate_code: boolean;
  /** the newest passing evidence (report or CI), or null */
  passed_at: string | null;
};

type Story = {
  status: string;
  implemented_at: string | null;
  record: { built_at: string | null };
};

/** The time of the story's latest code change, or null before it was built. */
export const codeChangedAt = (v: Story) => v.implemented_at ?? v.record.built_at;

export const criterionEvidence = (
  v: Story,
  build: BuildRecord,
  criterionId: string,
): CriterionEvidence => {
  const finished = v.status === 'done' || v.status === 'approved';
  const linked = build.tests.filter((t) => t.criterion_ids.includes(criterionId));
  const result = resultOf(build, criterionId);
  const passes = [
    ...(result?.status === 'pass' ? [result.at] : []),
    ...linked.flatMap((t) => {
      const ci = ciOf(build, t.test_id);
      return ci?.status === 'pass' ? [ci.at] : [];
    }),
  ];
  const passed_at = passes.length === 0 ? null : passes.reduce((a, b) => (a > b ? a : b));
  const code = codeChangedAt(v);
  return {
    ci_regressed: finished && linked.some((t) => failing(ciOf(build, t.test_id)?.status)),
    tests_predate_code:
      code !== null && passed_at !== null && Date.parse(passed_at) < Date.parse(code) - PREDATE_MS,
    passed_at,
  };
};

/**
 * The same evidence from the figures the read model keeps per criterion (story-head.ts): the
 * newest CI pass and the failing count stand for the walk over the linked tests above.
 */
export const evidenceOfFigures = (
  v: Story,
  result: { status: string; at: string } | undefined,
  f: { failing: number; ci_pass_at: string | null },
): CriterionEvidence => {
  const finished = v.status === 'done' || v.status === 'approved';
  const passes = [
    ...(result?.status === 'pass' ? [result.at] : []),
    ...(f.ci_pass_at ? [f.ci_pass_at] : []),
  ];
  const passed_at = passes.length === 0 ? null : passes.reduce((a, b) => (a > b ? a : b));
  const code = codeChangedAt(v);
  return {
    ci_regressed: finished && f.failing > 0,
    tests_predate_code:
      code !== null && passed_at !== null && Date.parse(passed_at) < Date.parse(code) - PREDATE_MS,
    passed_at,
  };
};
