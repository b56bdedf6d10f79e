import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { callOf, type Call } from '../storymap/session.js';
import { startServe } from './harness.js';
import { linkedProject } from './linked-project.js';

/** A client of one endpoint over stateless HTTP: no session id for the server to go by. */
const httpCall = async (url: string, token: string): Promise<{ call: Call; client: Client }> => {
  const client = new Client({ name: 'e2e-local-http', version: '1' });
  const headers = { Authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return { call: callOf(client), client };
};

describe('storymap-local over stateless HTTP', () => {
  it('mark_in_progress claims the story for the linked directory, and mark_done releases it', () =>
    withDataDir(async (dir) => {
      const { project_id, root } = await linkedProject(dir);
      // serve started in the linked directory, as `npm start` would be in the project
      const serving = await startServe(dir, [], { cwd: root });
      try {
        const token = (await cliIn(dir, ['token', 'create', '--system'])).stdout.trim();
        const local = await httpCall(`${serving.url}/storymap-local`, token);
        const hosted = await httpCall(`${serving.url}/storymap`, token);

        const started = await local.call('mark_in_progress', { story_id: 'PB-1' });
        assert.ok(started.ok, JSON.stringify(started.error));
        const story = await hosted.call('get_story', { project_id, story_id: 'PB-1' });
        assert.equal((story.result as { status: string }).status, 'in_progress');

        // another session of the same caller meets the claim, held under the directory's name
        const other = await hosted.call('start_story', {
          project_id,
          story_id: 'PB-1',
          session: 'another-agent',
        });
        assert.equal(other.ok, false);
        assert.equal(other.error!.code, 'conflict', other.error!.message);
        assert.ok(
          JSON.stringify(other.error).includes(`/local:${root}`),
          `the holder is named: ${JSON.stringify(other.error)}`,
        );

        // the next calls are the same session: no warning that another one holds the story
        const criteria = (story.result as { acceptance_criteria: { id: string }[] })
          .acceptance_criteria;
        const reported = await local.call('report_criteria', {
          story_id: 'PB-1',
          results: criteria.map((c) => ({ criterion_id: c.id, status: 'pass' })),
        });
        assert.ok(reported.ok, JSON.stringify(reported.error));
        assert.doesNotMatch(JSON.stringify(reported.result), /held by another session/);
        const done = await local.call('mark_done', { story_id: 'PB-1' });
        assert.ok(done.ok, JSON.stringify(done.error));

        // released: one story per session, and the next one starts with nothing to put back
        const next = await local.call('mark_in_progress', { story_id: 'PB-2' });
        assert.ok(next.ok, JSON.stringify(next.error));
        const after = await hosted.call('get_story', { project_id, story_id: 'PB-1' });
        assert.equal((after.result as { status: string }).status, 'done');
        await local.client.close();
        await hosted.client.close();
      } finally {
        await serving.stop();
      }
    }));
});
