import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { stdioClient } from '../e2e/harness.js';
import { writeJunit } from './ci-report.js';
import { agentSession, callOf, ok } from './session.js';

const FILE = 'src/upload.test.ts';
const NAME = 'Upload > shows the photo in the book';

describe('CI results: intentlog storymap junit, then get_status over MCP', () => {
  it('a JUnit import flips a done story to ci_regressed; the same report again writes nothing; a bad one changes nothing', () =>
    withDataDir(async (dir) => {
      const { client } = await stdioClient(dir, { args: ['--surface', 'storymap'] });
      const call = callOf(client);
      const junit = (args: string[]) => cliIn(dir, ['storymap', 'junit', ...args]);
      const report = (name: string) => join(dirname(dir), name);
      try {
        const { project_id } = await agentSession(call);
        const started = await ok(call, 'start_story', { project_id, story_id: 'PB-1' });
        const criterion = started.acceptance_criteria[0].id as string;
        await ok(call, 'report_criteria', {
          project_id,
          story_id: 'PB-1',
          results: [
            { criterion_id: criterion, status: 'pass', tests: [{ file: FILE, full_name: NAME }] },
          ],
        });
        await ok(call, 'complete_story', { project_id, story_id: 'PB-1', summary: 'Upload.' });

        const green = await writeJunit(report('green.xml'), [
          { file: FILE, name: NAME, status: 'pass' },
          { file: FILE, name: 'Upload > something no story links', status: 'fail' },
        ]);
        const first = await junit([green, '--project', project_id]);
        assert.equal(first.code, 0, first.stderr);
        assert.match(first.stdout, /2 cases \(1 pass, 1 fail.*1 match no linked test/);
        assert.match(first.stdout, /PB-1 Upload photos \(done\): recorded 1 test\n {2}pass/);
        let status = await ok(call, 'get_status', { project_id });
        assert.deepEqual(status.ci_regressed, []);
        assert.match(status.text, /CI regressions: none\./);

        const red = await writeJunit(report('red.xml'), [
          { file: FILE, name: NAME, status: 'fail' },
        ]);
        const flipped = await junit([red, '--project', project_id, '--json']);
        assert.equal(flipped.code, 0, flipped.stderr);
        const out = JSON.parse(flipped.stdout);
        assert.equal(out.ok, true);
        assert.deepEqual(
          out.result.stories.map((s: Record<string, unknown>) => [
            s.key,
            s.recorded,
            s.ci_regressed,
          ]),
          [['PB-1', true, true]],
        );
        assert.equal(out.result.stories[0].tests[0].ci, 'fail');

        status = await ok(call, 'get_status', { project_id });
        assert.deepEqual(
          status.ci_regressed.map((s: { key: string; status: string }) => [s.key, s.status]),
          [['PB-1', 'done']],
          'the story stays done: the flag says CI now fails it',
        );
        assert.equal(status.ci_regressed[0].criteria[0].id, criterion);
        assert.equal(status.ci_regressed[0].criteria[0].failing_tests[0].full_name, NAME);
        assert.match(status.text, /CI regressions \(done or approved.*\n- PB-1 Upload photos/);
        assert.deepEqual(status.card.blocking, [{ story: 'PB-1', gap: 'criteria now fail in CI' }]);
        const story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
        assert.equal(story.ci_regressed, true);
        assert.equal(story.acceptance_criteria[0].ci_regressed, true);
        assert.equal(story.tests[0].ci.status, 'fail');
        const readiness = await ok(call, 'check_release_readiness', {
          project_id,
          release_order: 1,
        });
        assert.ok(
          readiness.verification_gaps.some(
            (g: { story: string; gap: string }) => g.story === 'PB-1' && /fail in CI/.test(g.gap),
          ),
        );

        // the same report again: nothing new is written
        const again = await junit([red, '--project', project_id, '--json']);
        assert.equal(again.code, 0, again.stderr);
        assert.equal(JSON.parse(again.stdout).result.already_recorded, 1);
        assert.equal(
          (await ok(call, 'get_story', { project_id, story_id: 'PB-1' })).version,
          story.version,
        );

        // bad XML, an unknown project, a missing file: structured errors, nothing written
        const broken = report('broken.xml');
        await writeFile(broken, '<testsuites><testsuite name="a"><testcase name="x"></testsuite>');
        const bad = await junit([broken, '--project', project_id, '--json']);
        assert.equal(bad.code, 1);
        const error = JSON.parse(bad.stdout).error;
        assert.equal(error.code, 'invalid_argument');
        assert.match(error.message, /malformed/);
        const unknown = await junit([red, '--project', 'no-such-project']);
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /not_found: Project not found or access denied/);
        const missing = await junit([report('missing.xml'), '--project', project_id]);
        assert.equal(missing.code, 1);
        assert.match(missing.stderr, /Cannot read the report/);
        assert.equal(
          (await ok(call, 'get_story', { project_id, story_id: 'PB-1' })).version,
          story.version,
        );

        // CI green again clears the flag
        const fixed = await junit([green, '--project', project_id]);
        assert.equal(fixed.code, 0, fixed.stderr);
        assert.match(fixed.stdout, /already recorded/, 'a report already recorded is not replayed');
        const rerun = await writeJunit(
          report('rerun.xml'),
          [{ file: FILE, name: NAME, status: 'pass' }],
          '2026-12-01T13:00:00Z',
        );
        assert.equal((await junit([rerun, '--project', project_id])).code, 0);
        status = await ok(call, 'get_status', { project_id });
        assert.deepEqual(status.ci_regressed, []);
      } finally {
        await client.close();
      }
    }));
});
