import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { connect, withApp } from '../mcp/harness.js';
import { callOf, ok, VISION } from './session.js';

describe('update_stories readyReleases', () => {
  it('names a release once every live story in it is built, and only then', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const call = callOf(client);
      const { project_id } = await ok(call, 'create_project', { name: 'R', idea: 'releases' });
      await ok(call, 'set_vision', { project_id, answers: VISION });
      const made = await ok(call, 'create_stories', {
        project_id,
        stories: [
          { title: 'One', release_order: 1 },
          { title: 'Two', release_order: 2 },
          { title: 'Three', release_order: 2 },
        ],
      });
      const [one, two, three] = made.stories as { id: string }[];
      const edit = await ok(call, 'update_stories', {
        project_id,
        stories: [{ id: one!.id, priority: 'must' }],
      });
      assert.deepEqual(edit.readyReleases, [], 'no story built: no release to report');
      const half = await ok(call, 'update_stories', {
        project_id,
        stories: [{ id: two!.id, status: 'done' }],
      });
      assert.deepEqual(half.readyReleases, [], 'Three in release 2 is not built yet');
      const done = await ok(call, 'update_stories', {
        project_id,
        stories: [
          { id: three!.id, status: 'done' },
          { id: one!.id, priority: 'should' },
        ],
      });
      assert.deepEqual(
        (done.readyReleases as { release_order: number }[]).map((r) => r.release_order),
        [2],
      );
      await client.close();
    }));
});
