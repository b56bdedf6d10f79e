/**
 * Captures a real request and response of each building-loop tool from a running server
 * (stateful HTTP: each client its own Mcp-Session-Id) for docs/storymap.md:
 * `npx tsx test/storymap/capture-build-docs.ts --write`.
 */
import { storymapBuild } from '../../src/app/storymap/build.js';
import type { Call } from './session.js';
import { fiona, withBuildServer } from './build-harness.js';
import { agentSession } from './session.js';
import { captured, publish } from './capture.js';

const shown = captured(1500, '###');

await withBuildServer(async ({ app, session }) => {
  const raw = await session();
  const out: string[] = [];
  const call =
    (c: Call) =>
    async (name: string, args: Record<string, unknown> = {}) => {
      const answer = await c(name, args);
      out.push(shown(name, args, answer));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the script reads results by field
      return answer.result as Record<string, any>;
    };
  const { project_id } = await agentSession(raw);
  const p = { project_id };
  const agent = call(raw);
  const started = await agent('start_story', { ...p, story_id: 'PB-1' });
  const criterion = started.acceptance_criteria[0].id as string;
  await agent('start_story', { ...p, story_id: 'PB-2' });
  const rival = call(await session());
  await rival('start_story', { ...p, story_id: 'PB-1' });
  await agent('save_plan', {
    ...p,
    story_id: 'PB-1',
    steps: [
      { text: 'Add the upload endpoint', files: ['src/upload.ts'] },
      { text: 'Show the photo in the book', files: ['src/book.tsx'] },
    ],
    risk: 'large photos may time out',
  });
  const build = storymapBuild(app);
  await build.reviewPlan(
    {
      ...p,
      story_id: 'PB-1',
      verdict: 'changes_requested',
      points: [{ text: 'Reuse the gallery component', step_id: 's2' }],
    },
    fiona,
  );
  await build.editStep({ ...p, story_id: 'PB-1', step_id: 's1', text: 'Add POST /upload' }, fiona);
  await agent('save_plan', { ...p, story_id: 'PB-1', steps: [{ id: 's1', text: 'x' }] });
  await agent('save_plan', {
    ...p,
    story_id: 'PB-1',
    steps: [
      { id: 's1', text: 'Add the upload endpoint with retries', files: ['src/upload.ts'] },
      { id: 's2', text: 'Show the photo with the gallery', files: ['src/book.tsx'] },
    ],
    responses: [{ feedback_id: 'f1', reply: 's2 now uses the gallery component' }],
  });
  await agent('save_tests', {
    ...p,
    story_id: 'PB-1',
    tests: [
      {
        title: 'an uploaded photo shows in the book',
        criterion_ids: [criterion],
        file: 'test/upload.test.ts',
        full_name: 'upload > shows in the book',
      },
    ],
  });
  await agent('report_criteria', {
    ...p,
    story_id: 'PB-1',
    results: [{ criterion_id: 'zzzz', status: 'pass' }],
  });
  await agent('report_criteria', {
    ...p,
    story_id: 'PB-1',
    results: [
      { criterion_id: criterion.slice(0, 8), status: 'fail', detail: 'times out at 20 MB' },
    ],
  });
  await agent('complete_story', { ...p, story_id: 'PB-1', summary: 'Upload works.' });
  await agent('report_criteria', {
    ...p,
    story_id: 'PB-1',
    results: [{ criterion_id: criterion.slice(0, 8), status: 'pass' }],
  });
  await agent('complete_story', {
    ...p,
    story_id: 'PB-1',
    summary: 'Upload with retries; photos show via the gallery component.',
    implemented_files: ['src/upload.ts', 'src/book.tsx'],
    pr_url: 'https://github.com/acme/photobook/pull/12',
  });
  await agent('start_story', { ...p, story_id: 'PB-2' });
  await agent('raise_blocker', {
    ...p,
    story_id: 'PB-2',
    summary: 'No image library',
    attempting: 'resizing pages for print',
    failing: 'sharp needs a native build the CI image lacks',
    decision_needed: 'May we add sharp and a build step to CI?',
  });
  await agent('needs_founder', {
    ...p,
    story_id: 'PB-2',
    action: 'Create a print-shop API account and put the key in .env',
  });
  await agent('link_pr', {
    ...p,
    story_id: 'PB-2',
    pr_url: 'https://github.com/acme/photobook/pull/13',
  });
  await agent('get_founder_todo', p);
  await publish('test/storymap/capture-build-docs.ts', out);
});
