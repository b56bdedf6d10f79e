import type { Principal } from '../../commands/principal.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import type { OrderRow } from '../../projections/storymap/order.js';
import type { MapView } from '../../projections/storymap/views.js';
import { acceptanceOf } from './evidence-reads.js';
import { byNumber, live } from './queries.js';
import { requireRelease, type StoryMapReads } from './read.js';

/** The current release: the first whose live stories are not all approved. */
export const currentRelease = (map: MapView, rows: readonly OrderRow[]) =>
  map.releases.find((rel) =>
    live(rows).some((r) => r.release === rel.release_order && r.status !== 'approved'),
  ) ?? map.releases[0];

/**
 * A finished story's evidence that blocks the verdict: no passing result; passing results
 * reported more than an hour before it was implemented (tests_predate_code, from the map's
 * flags); criteria that now fail in CI (ci_regressed: the contract does not list it, but a
 * release whose built story CI now fails is not ready).
 */
const verificationGaps = (map: MapView, inRelease: readonly OrderRow[]) => {
  const predate = new Set(map.flagged.tests_predate_code);
  const regressed = new Set(map.flagged.ci_regressed);
  return inRelease.filter(isFinished).flatMap((r) => [
    ...(r.passing_ids.length === 0
      ? [{ story: r.key, gap: 'finished with no passing result' }]
      : []),
    ...(r.passing_ids.length > 0 && predate.has(r.id)
      ? [
          {
            story: r.key,
            gap: 'passing results reported more than an hour before it was implemented',
          },
        ]
      : []),
    ...(regressed.has(r.id) ? [{ story: r.key, gap: 'its criteria now fail in CI' }] : []),
  ]);
};

export const checkReleaseReadiness = async (
  reads: StoryMapReads,
  projectId: string,
  order: number | undefined,
  principal: Principal,
) => {
  const { map, caller } = await reads.map(projectId, principal);
  const rows = await reads.rows(projectId);
  const release = order !== undefined ? requireRelease(map, order) : currentRelease(map, rows);
  if (!release)
    return {
      release: null,
      ready: false,
      report: 'No releases yet: place a story in release 1 first.',
    };
  const inRelease = live(rows)
    .filter((r) => r.release === release.release_order)
    .sort(byNumber);
  const toBuild = inRelease.filter((r) => !isFinished(r));
  const gaps = toBuild.flatMap((r) =>
    r.criteria_count === 0
      ? [{ story: r.key, gap: 'no acceptance criteria' }]
      : r.must_ids.length === 0
        ? [{ story: r.key, gap: 'no must criteria' }]
        : [],
  );
  const verification_gaps = verificationGaps(map, inRelease);
  const blocking = [...gaps, ...verification_gaps];
  const counts = {
    total: inRelease.length,
    done: inRelease.filter(isFinished).length,
    in_progress: inRelease.filter((r) => r.status === 'in_progress').length,
    to_build: toBuild.length,
  };
  const ready = blocking.length === 0 && inRelease.length > 0;
  const report = [
    `# Release ${release.release_order}: ${release.label}`,
    `${counts.total} stories: ${counts.done} finished, ${counts.in_progress} in progress, ${counts.to_build} to build.`,
    ready ? '**Ready to build.**' : '**Not ready.**',
    ...blocking.map((b) => `- ${b.story}: ${b.gap}`),
    ...(toBuild.some((r) => !r.has_plan)
      ? [`Advisory: ${toBuild.filter((r) => !r.has_plan).length} stories have no plan (save_plan).`]
      : []),
  ].join('\n');
  return {
    release: release.label,
    release_order: release.release_order,
    auto_selected: order === undefined,
    selection_reason:
      order === undefined
        ? 'the first release whose stories are not all approved'
        : 'named by the caller',
    counts,
    gaps,
    verification_gaps,
    blocking,
    advisory: { missing_plans: toBuild.filter((r) => !r.has_plan).map((r) => r.key) },
    // a viewer's agent doesn't get it (the contract)
    ...(caller.role === 'viewer'
      ? {}
      : {
          acceptance: await acceptanceOf(
            reads,
            projectId,
            inRelease.filter((r) => r.status === 'approved'),
          ),
        }),
    ready,
    report,
  };
};

/** Releases among `touched` whose live stories are now all finished: they can be closed. */
export const checkReadyReleases = async (
  reads: StoryMapReads,
  projectId: string,
  touched: readonly number[],
) => {
  if (touched.length === 0) return [];
  await reads.fresh();
  const rows = live(await reads.rows(projectId));
  return [...new Set(touched)].flatMap((release) => {
    const inRelease = rows.filter((r) => r.release === release);
    if (inRelease.length === 0 || !inRelease.every(isFinished)) return [];
    return [
      {
        release_order: release,
        release_note: `Release ${release}: all ${inRelease.length} stories are built (${inRelease.map((r) => r.key).join(', ')}). It can be closed once the founder approves them.`,
      },
    ];
  });
};
