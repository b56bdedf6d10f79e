import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { storymap } from '../../src/app/storymap/index.js';
import type { Principal } from '../../src/commands/principal.js';
import { encode } from '../../src/events/index.js';
import { storyMapModel } from '../../src/projections/storymap/stories.js';
import { withApp } from '../mcp/harness.js';

const founder: Principal = { kind: 'actor', actor_id: 'founder' };

/**
 * storymap.stories keeps a map's last activity apart from the map's view: a story's event
 * writes a time, not the whole map again (bench/RESULTS.md, session 15). The reads still
 * answer the map with its last activity.
 */
describe('storymap.stories: the map and its last activity', () => {
  it("a story's event leaves the stored map view as it was, and moves its last activity", () =>
    withApp(async (app) => {
      const sm = storymap(app);
      const { project_id } = await sm.createProject(
        { name: 'M', idea: 'i', client: null },
        founder,
      );
      await sm.setVision(
        { project_id, answers: { users: 'u', problem: 'p', switch: 's', first: 'f', proof: 'p' } },
        founder,
      );
      await sm.createStories(
        {
          project_id,
          stories: [
            {
              title: 'One',
              activity: 'A',
              i_want: 'a thing',
              release_order: 1,
              acceptance_criteria: [{ text: 'done', priority: 'must' }],
            },
          ],
        },
        founder,
      );
      await app.waitFor(await app.log.head());
      const stored = () => app.log.models.get<unknown>(storyMapModel.map.key(project_id));
      const before = encode(await stored());
      const [row] = await sm.reads.rows(project_id);
      await sm.founderMark({ project_id, story_id: row!.id, to: 'ready_for_dev' }, founder);
      await app.waitFor(await app.log.head());

      assert.deepEqual(encode(await stored()), before, 'the stored map view was not rewritten');
      const [last] = await app.log.readAll({ after: (await app.log.head()) - 1, limit: 1 });
      assert.equal(last!.type, 'story.status_changed');
      const map = await storyMapModel.map.get(app.log.models, project_id);
      assert.equal(map?.last_activity_at, last!.created_at, 'the read has the last activity');
      const all = await storyMapModel.maps.values(app.log.models);
      assert.deepEqual(
        all.map((m) => [m.project_id, m.last_activity_at]),
        [[project_id, last!.created_at]],
      );
    }));
});
