import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { storymap } from '../../src/app/storymap/index.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { connect, withApp } from '../mcp/harness.js';
import { agentSession, callOf, ok, refused } from './session.js';

describe('storymap surface (in-memory client)', () => {
  it('runs the session: project, vision gate, stories, dependencies, build order, founder, readiness', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const call = callOf(client);
      const s = await agentSession(call);
      await refused(
        call,
        'update_stories',
        { project_id: s.project_id, stories: [{ id: s.upload.id, status: 'approved' }] },
        'invalid_argument',
      );
      await ok(call, 'update_stories', {
        project_id: s.project_id,
        stories: [{ id: s.upload.id, status: 'done' }],
      });
      await storymap(app).founderMark(
        { project_id: s.project_id, story_id: 'PB-2', to: 'ready_for_dev' },
        SYSTEM,
      );
      await storymap(app).founderMark(
        { project_id: s.project_id, story_id: 'PB-1', to: 'approved' },
        SYSTEM,
      );
      const story = await ok(call, 'get_story', { project_id: s.project_id, story_id: '#1' });
      assert.equal(story.key, 'PB-1');
      assert.equal(story.status, 'approved');
      assert.deepEqual(
        (story.history as { to: string; via: string }[]).map((h) => [h.to, h.via]),
        [
          ['done', 'mcp'],
          ['approved', 'founder_cli'],
        ],
      );
      const readiness = await ok(call, 'check_release_readiness', {
        project_id: s.project_id,
        release_order: 1,
      });
      assert.equal(
        readiness.ready,
        false,
        'an approved story with no passing result is a verification gap',
      );
      await client.close();
    }));
});
