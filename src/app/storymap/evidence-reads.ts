import { criterionEvidence, codeChangedAt } from '../../projections/storymap/evidence.js';
import type { EvidenceFlag, MapView, StoryView } from '../../projections/storymap/views.js';
import type { StoryMapReads } from './read.js';
import { ciOf } from '../../events/storymap/build-record.js';

/** The live stories the map lists under `flag`, read in parallel, in key order. */
const flaggedViews = async (reads: StoryMapReads, map: MapView, flag: EvidenceFlag) =>
  (await Promise.all(map.flagged[flag].map((id) => reads.story(map.project_id, id))))
    .filter((v): v is StoryView => v !== undefined && v.cancelled_at === null)
    .sort((a, b) => a.key.localeCompare(b.key, undefined, { numeric: true }));

/** get_status's CI regressions: done or approved stories whose linked tests now fail in CI. */
export const ciRegressions = async (reads: StoryMapReads, map: MapView) =>
  (await flaggedViews(reads, map, 'ci_regressed')).map((v) => ({
    id: v.id,
    key: v.key,
    title: v.title,
    status: v.status,
    criteria: v.acceptance_criteria
      .filter((c) => c.ci_regressed)
      .map((c) => ({
        id: c.id,
        text: c.text,
        failing_tests: v.build.tests
          .filter((t) => t.criterion_ids.includes(c.id))
          .flatMap((t) => {
            const ci = ciOf(v.build, t.test_id);
            return ci && (ci.status === 'fail' || ci.status === 'error')
              ? [{ test_id: t.test_id, file: t.file, full_name: t.full_name, ...ci }]
              : [];
          }),
      })),
  }));

/** Stories whose passing evidence is over an hour older than their latest code change. */
export const testsPredateCode = async (reads: StoryMapReads, map: MapView) =>
  (await flaggedViews(reads, map, 'tests_predate_code')).map((v) => ({
    id: v.id,
    key: v.key,
    title: v.title,
    status: v.status,
    code_changed_at: codeChangedAt(v),
    criteria: v.acceptance_criteria.flatMap((c) => {
      const e = criterionEvidence(v, v.build, c.id);
      return e.tests_predate_code ? [{ id: c.id, text: c.text, passed_at: e.passed_at }] : [];
    }),
  }));

type Listed = { key: string; title: string };
export const evidenceLines = (
  regressed: readonly (Listed & { criteria: { text: string }[] })[],
  predating: readonly (Listed & { code_changed_at: string | null })[],
) => [
  ...(regressed.length > 0
    ? [
        'CI regressions (done or approved, criteria now fail in CI):',
        ...regressed.map(
          (s) => `- ${s.key} ${s.title}: ${s.criteria.map((c) => `"${c.text}"`).join('; ')}`,
        ),
      ]
    : ['CI regressions: none.']),
  ...(predating.length > 0
    ? [
        'Tests predate code (passing results over an hour older than the latest code change):',
        ...predating.map((s) => `- ${s.key} ${s.title} (code changed ${s.code_changed_at})`),
      ]
    : []),
];

/**
 * check_release_readiness' acceptance: how each approved story was accepted, from its record —
 * approved by someone other than its builder, self-accepted (its builder approved it), carried
 * end to end by one person (everyone in its record is one actor), or approved before the
 * record began (no approval recorded).
 */
export const acceptanceOf = async (
  reads: StoryMapReads,
  projectId: string,
  approved: readonly { id: string }[],
) =>
  (await Promise.all(approved.map((r) => reads.story(projectId, r.id))))
    .filter((v): v is StoryView => v !== undefined)
    .map(({ key, record: r }) => {
      const people = new Set(
        [r.created_by, r.marked_ready_by, r.built_by, r.approved_by].filter((p) => p !== null),
      );
      const accepted =
        r.approved_by === null
          ? 'approved_before_record'
          : people.size === 1
            ? 'carried_end_to_end'
            : r.approved_by === r.built_by
              ? 'self_accepted'
              : 'reviewed_by_someone_else';
      return { story: key, accepted, built_by: r.built_by, approved_by: r.approved_by };
    });
