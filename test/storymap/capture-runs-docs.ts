/**
 * Captures real requests and responses of the run and extra tools for docs/storymap.md:
 * `npx tsx test/storymap/capture-runs-docs.ts --write`.
 */
import { runs } from '../../src/app/storymap/runs.js';
import { withApp } from '../mcp/harness.js';
import { captured, fiona, publish, withStorymapHttp } from './capture.js';
import { VISION } from './session.js';

const shown = captured(1500, '####');

await withApp((app) =>
  withStorymapHttp(app, async (client) => {
    const out: string[] = [];
    const call = async (name: string, args: Record<string, unknown> = {}, record = true) => {
      const answer = await client.callTool({ name, arguments: args });
      if (record) out.push(shown(name, args, answer.structuredContent));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a capture script reads results by field
      return (answer.structuredContent as { result: Record<string, any> }).result;
    };
    const { project_id } = await call(
      'create_project',
      { name: 'Photo Book', idea: 'Print photo books' },
      false,
    );
    await call('set_vision', { project_id, answers: VISION }, false);
    const made = await call(
      'create_stories',
      {
        project_id,
        stories: [
          {
            title: 'Upload photos',
            acceptance_criteria: [{ text: 'A JPEG upload shows a thumbnail', priority: 'must' }],
          },
          { title: 'Arrange pages', acceptance_criteria: ['Pages can be reordered'] },
          {
            title: 'Pay by card',
            effort: 'L',
            acceptance_criteria: ['Stripe checkout charges the card'],
          },
        ],
      },
      false,
    );
    const [a, b, c] = (made.stories as { id: string }[]).map((s) => s.id);
    await call(
      'update_stories',
      {
        project_id,
        stories: [
          { id: b, dependencies: [a] },
          { id: c, dependencies: [a] },
        ],
      },
      false,
    );
    await runs(app).create(
      {
        project_id,
        title: 'First release',
        stories: ['PB-1', 'PB-2', 'PB-3'],
        concurrency: 2,
        on_failure: 'stop',
      },
      fiona,
    );
    await call('next_in_run', { project_id, run: 'R-1' });
    await call('get_founder_todo', {});
    await runs(app).move({ project_id, run: 'R-1' }, 'ApproveRun', fiona);
    await call('next_in_run', { project_id, run: 'R-1' });
    await call('next_in_run', { project_id, run: 'R-1' });
    await call('get_run', { project_id, run: 'R-1' });
    await call(
      'add_note',
      { project_id, story_id: 'PB-3', note: 'Refunds go through the same Stripe account' },
      false,
    );
    await call('research', { project_id, query: 'stripe refunds' });
    await call('analyze_complexity', { project_id, story_ids: ['PB-3'] });
    await call('save_design', {
      project_id,
      story_id: 'PB-1',
      url: 'https://www.figma.com/design/abc/Book?node-id=1-23',
    });
    await call('get_design', { project_id, story_id: 'PB-1' });
    await call('propose_drift_fix', { project_id, story_id: 'PB-1' });
    await publish('test/storymap/capture-runs-docs.ts', out);
  }),
);
