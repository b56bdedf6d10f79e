import { runCommand } from '../../commands/handler.js';
import type { Principal } from '../../commands/principal.js';
import { requireCapability } from '../../commands/storymap/access.js';
import { buildDecider } from '../../commands/storymap/build.js';
import { caseNames, caseMatches } from '../../commands/storymap/ci.js';
import { parseJunit, type JunitCase } from '../../commands/storymap/junit.js';
import { storyStream } from '../../commands/storymap/map-state.js';
import { requireMap, requireWritable } from '../../commands/storymap/refs.js';
import { loadMap } from '../../commands/storymap/run.js';
import type { StoryTest } from '../../events/storymap/index.js';
import type { StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { callerOf, metaOf } from './access.js';
import { storyMapReads } from './read.js';
import { ciOf } from '../../events/storymap/build-record.js';

type Linked = { story: StoryView; test: StoryTest };

/** The live stories' tests that name a full_name, by that name: a case looks itself up here. */
const linkedByName = (stories: readonly StoryView[]) => {
  const byName = new Map<string, Linked[]>();
  for (const story of stories)
    for (const test of story.build.tests)
      if (test.full_name) {
        const name = test.full_name.trim();
        byName.set(name, [...(byName.get(name) ?? []), { story, test }]);
      }
  return byName;
};

/** The report's cases each story's tests match, and the cases no test matches. */
const matchCases = (stories: readonly StoryView[], cases: readonly JunitCase[]) => {
  const byName = linkedByName(stories);
  const perStory = new Map<string, { story: StoryView; cases: JunitCase[] }>();
  let unmatched = 0;
  for (const c of cases) {
    const hits = caseNames(c)
      .flatMap((n) => byName.get(n) ?? [])
      .filter((l) => caseMatches(l.test, c));
    if (hits.length === 0) unmatched++;
    for (const { story } of hits) {
      const entry = perStory.get(story.id) ?? { story, cases: [] };
      if (!entry.cases.includes(c)) entry.cases.push(c);
      perStory.set(story.id, entry);
    }
  }
  return { perStory: [...perStory.values()], unmatched };
};

const tally = (cases: readonly JunitCase[]) => {
  const t = { total: cases.length, pass: 0, fail: 0, error: 0, skipped: 0 };
  for (const c of cases) t[c.status]++;
  return t;
};

/**
 * `intentlog storymap junit`: records a JUnit report's results on the project's tests that
 * name a file and full name (save_tests, report_criteria's tests). The report is parsed and
 * the project checked before anything is written; each story then records the results of its
 * own tests in one event on its own stream, once per report (its content hash), so importing
 * the same report again writes nothing. A run cut short leaves some stories recorded; running
 * it again records the rest.
 */
export const importJunit = async (
  app: App,
  args: { project_id: string; xml: string },
  principal: Principal,
) => {
  const report = parseJunit(args.xml);
  const caller = await callerOf(app, args.project_id, principal);
  requireWritable(requireMap((await loadMap(app.log, args.project_id)).state));
  requireCapability(caller, 'edit');
  const reads = storyMapReads(app);
  await reads.fresh();
  const live = (await reads.stories(args.project_id)).filter((v) => v.cancelled_at === null);
  const { perStory, unmatched } = matchCases(live, report.cases);
  const now = app.clock().toISOString();
  const outcomes = await Promise.all(
    perStory.map(({ story, cases }) =>
      runCommand(app.log, {
        decider: buildDecider,
        stream: storyStream(args.project_id, story.id),
        command: {
          type: 'RecordCiResults',
          data: { caller, now, report_id: report.report_id, run_at: report.run_at, cases },
        },
        meta: metaOf(caller),
        respond: (_story, events) => events.length > 0,
      }),
    ),
  );
  const position = Math.max(0, ...outcomes.map((o) => o.position));
  await app.waitFor(position);
  const stories = await Promise.all(
    perStory.map(async ({ story }, i) => {
      const v = (await reads.story(args.project_id, story.id)) ?? story;
      const tests = v.build.tests.filter(
        (t) => ciOf(v.build, t.test_id)?.report_id === report.report_id,
      );
      return {
        id: v.id,
        key: v.key,
        title: v.title,
        status: v.status,
        recorded: outcomes[i]!.result,
        tests: tests.map((t) => ({
          test_id: t.test_id,
          title: t.title,
          file: t.file,
          full_name: t.full_name,
          criterion_ids: t.criterion_ids,
          ci: ciOf(v.build, t.test_id)!.status,
          message: ciOf(v.build, t.test_id)!.message,
        })),
        ci_regressed: v.ci_regressed,
        tests_predate_code: v.tests_predate_code,
      };
    }),
  );
  return {
    project_id: args.project_id,
    report_id: report.report_id,
    run_at: report.run_at,
    suites: report.suites,
    cases: tally(report.cases),
    unmatched_cases: unmatched,
    stories,
    recorded: stories.filter((s) => s.recorded).length,
    already_recorded: stories.filter((s) => !s.recorded).length,
    position,
  };
};
