import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { importJunit } from '../../src/app/storymap/ci.js';
import { storymap } from '../../src/app/storymap/index.js';
import { fiona, withBuildServer } from './build-harness.js';
import { junitXml } from './ci-report.js';
import { agentSession, ok, type Call } from './session.js';

const HOUR = 3600;
const STALE = 'passing results reported more than an hour before it was implemented';

type Gap = { story: string; gap: string };
const gapsOf = async (call: Call, project_id: string) =>
  (await ok(call, 'check_release_readiness', { project_id, release_order: 1 }))
    .verification_gaps as Gap[];

/** start → report a pass (linking a test) → wait `seconds` → complete. */
const build = async (
  call: Call,
  clock: { advance(s: number): void },
  project_id: string,
  key: string,
  seconds: number,
) => {
  const started = await ok(call, 'start_story', { project_id, story_id: key });
  const results = (started.acceptance_criteria as { id: string }[]).map((c) => ({
    criterion_id: c.id,
    status: 'pass',
    tests: [{ file: `src/${key}.test.ts`, full_name: `${key} > ${c.id}` }],
  }));
  await ok(call, 'report_criteria', { project_id, story_id: key, results });
  clock.advance(seconds);
  await ok(call, 'complete_story', { project_id, story_id: key, summary: `${key} built` });
  return results;
};

describe('tests_predate_code and the readiness rule (fake clock)', () => {
  it('passing results over an hour before the implementation block the release until fresh evidence comes', () =>
    withBuildServer(async ({ app, clock, session }) => {
      const call = await session();
      const { project_id } = await agentSession(call);

      // PB-1: reported, then two hours of work before complete_story
      const stale = await build(call, clock, project_id, 'PB-1', 2 * HOUR);
      let story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      assert.equal(story.tests_predate_code, true);
      assert.deepEqual(await gapsOf(call, project_id), [{ story: 'PB-1', gap: STALE }]);
      let status = await ok(call, 'get_status', { project_id });
      assert.deepEqual(
        status.tests_predate_code.map((s: { key: string; criteria: unknown[] }) => [
          s.key,
          s.criteria.length,
        ]),
        [['PB-1', 1]],
      );
      assert.match(status.text, /Tests predate code .*\n- PB-1 Upload photos/);

      // PB-2: completed ten minutes after its report: a report made while building is fresh
      await build(call, clock, project_id, 'PB-2', 10 * 60);
      story = await ok(call, 'get_story', { project_id, story_id: 'PB-2' });
      assert.equal(story.tests_predate_code, false);
      assert.deepEqual(await gapsOf(call, project_id), [{ story: 'PB-1', gap: STALE }]);

      const readiness = await ok(call, 'check_release_readiness', { project_id, release_order: 1 });
      assert.equal(readiness.ready, false);
      assert.match(readiness.report, /PB-1: passing results reported more than an hour/);

      // CI fails PB-1's linked test: regressed, a readiness gap, and drift propose_drift_fix names
      clock.advance(30);
      const red = junitXml(
        stale.map((r) => ({
          file: r.tests[0]!.file,
          name: r.tests[0]!.full_name,
          status: 'fail' as const,
        })),
      );
      await importJunit(app, { project_id, xml: red }, fiona);
      assert.deepEqual(await gapsOf(call, project_id), [
        { story: 'PB-1', gap: STALE },
        { story: 'PB-1', gap: 'its criteria now fail in CI' },
      ]);
      const drift = await ok(call, 'propose_drift_fix', { project_id, story_id: 'PB-1' });
      assert.deepEqual([drift.drift, drift.verdict], [['regressed'], 'rework']);
      assert.match(drift.text, /CI now fails 1 of PB-1's criteria/);

      // a CI pass of PB-1's linked test, after the code, is fresh evidence: both gaps go
      clock.advance(60);
      const xml = junitXml(
        stale.map((r) => ({
          file: r.tests[0]!.file,
          name: r.tests[0]!.full_name,
          status: 'pass' as const,
        })),
      );
      const imported = await importJunit(app, { project_id, xml }, fiona);
      assert.deepEqual(
        imported.stories.map((s) => [s.key, s.recorded, s.tests_predate_code]),
        [['PB-1', true, false]],
      );
      assert.deepEqual(await gapsOf(call, project_id), []);
      status = await ok(call, 'get_status', { project_id });
      assert.deepEqual(status.tests_predate_code, []);

      // acceptance: fiona created, built and approved PB-1 herself
      await storymap(app).founderMark({ project_id, story_id: 'PB-1', to: 'approved' }, fiona);
      const accepted = await ok(call, 'check_release_readiness', { project_id, release_order: 1 });
      assert.deepEqual(accepted.acceptance, [
        { story: 'PB-1', accepted: 'carried_end_to_end', built_by: 'fiona', approved_by: 'fiona' },
      ]);
    }));

  it('the hour is measured from the latest code change: reworked code with the old results is stale', () =>
    withBuildServer(async ({ clock, session }) => {
      const call = await session();
      const { project_id, upload } = await agentSession(call);
      await build(call, clock, project_id, 'PB-1', 60 * 60);
      const built = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      assert.equal(built.tests_predate_code, false, 'exactly an hour is not more than an hour');
      await ok(call, 'update_stories', {
        project_id,
        stories: [{ id: upload.id, status: 'needs_rework' }],
      });
      await ok(call, 'start_story', { project_id, story_id: 'PB-1' });
      clock.advance(2 * HOUR);
      await ok(call, 'complete_story', { project_id, story_id: 'PB-1', summary: 'reworked' });
      const story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      assert.equal(story.tests_predate_code, true, 'the results are 3 h older than the rework');
      assert.deepEqual(await gapsOf(call, project_id), [{ story: 'PB-1', gap: STALE }]);
    }));
});
