import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliIn } from '../cli/cli-harness.js';
import { stdioClient } from '../e2e/harness.js';
import { writeJunit } from './ci-report.js';
import { agentSession, callOf, ok } from './session.js';

/**
 * The CI-results section of docs/storymap.md, from a real run: an MCP client over stdio builds
 * PB-1, then `intentlog storymap junit` records a green and a red report on the same data dir.
 * Run: npx tsx test/storymap/capture-ci-docs.ts
 */
const FILE = 'src/upload.test.ts';
const NAME = 'Upload > shows the photo in the book';
const root = await mkdtemp(join(tmpdir(), 'intentlog-ci-docs-'));
const dir = join(root, 'data');
const { client } = await stdioClient(dir, { args: ['--surface', 'storymap'] });
const call = callOf(client);
try {
  const { project_id } = await agentSession(call);
  const started = await ok(call, 'start_story', { project_id, story_id: 'PB-1' });
  await ok(call, 'report_criteria', {
    project_id,
    story_id: 'PB-1',
    results: [
      {
        criterion_id: started.acceptance_criteria[0].id,
        status: 'pass',
        tests: [{ file: FILE, full_name: NAME }],
      },
    ],
  });
  await ok(call, 'complete_story', { project_id, story_id: 'PB-1', summary: 'Upload works.' });
  const green = await writeJunit(join(root, 'green.xml'), [
    { file: FILE, name: NAME, status: 'pass' },
    { file: FILE, name: 'Upload > keeps EXIF', status: 'skipped' },
  ]);
  const red = await writeJunit(
    join(root, 'red.xml'),
    [{ file: FILE, name: NAME, status: 'fail' }],
    '2026-12-01T13:00:00Z',
  );
  const show = async (args: string[]) => {
    const r = await cliIn(dir, args);
    const shown = args.map((a) => a.replace(root, '.').replace(project_id, '<project>'));
    console.log(`$ intentlog ${shown.join(' ')}\n${r.stdout}${r.stderr}(exit ${r.code})\n`);
  };
  await show(['storymap', 'junit', green, '--project', project_id]);
  await show(['storymap', 'junit', red, '--project', project_id]);
  await show(['storymap', 'junit', red, '--project', project_id]);
  await show([
    'storymap',
    'junit',
    join(root, 'green.xml').replace('green', 'missing'),
    '--project',
    'nope',
    '--json',
  ]);
  const status = await ok(call, 'get_status', { project_id });
  console.log('get_status text:\n' + status.text);
  const { card: _card, founder_todo: _todo, ...fields } = status;
  console.log('get_status ci_regressed:\n' + JSON.stringify(fields.ci_regressed, null, 2));
} finally {
  await client.close();
  await rm(root, { recursive: true, force: true });
}
