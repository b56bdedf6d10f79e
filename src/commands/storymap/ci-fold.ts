import type { BuildRecord } from '../../events/storymap/build-record.js';
import type { StoryEvent, StoryTest } from '../../events/storymap/index.js';
import { setOwn } from '../../events/own.js';

/** How many report ids a story remembers, to record a re-imported report once. */
export const CI_REPORTS_KEPT = 100;

type Recorded = Extract<StoryEvent, { type: 'story.ci_results_recorded' }>['data'];

export const ciRecorded = (b: BuildRecord, d: Recorded): BuildRecord => {
  const ci = { ...b.ci };
  for (const r of d.results)
    setOwn(ci, r.test_id, {
      status: r.status,
      message: r.message,
      report_id: d.report_id,
      run_at: d.run_at,
      at: d.at,
    });
  return { ...b, ci, ci_reports: [...b.ci_reports, d.report_id].slice(-CI_REPORTS_KEPT) };
};

/** A test that now names another file or full name is another CI test: its old result goes. */
export const ciOfRenamed = (b: BuildRecord, updated: ReadonlyMap<string, StoryTest>) => {
  const renamed = new Set(
    b.tests
      .filter((t) => {
        const u = updated.get(t.test_id);
        return u && (u.file !== t.file || u.full_name !== t.full_name);
      })
      .map((t) => t.test_id),
  );
  return Object.fromEntries(Object.entries(b.ci).filter(([id]) => !renamed.has(id)));
};
