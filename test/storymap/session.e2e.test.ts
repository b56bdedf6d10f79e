import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { storymap } from '../../src/app/storymap/index.js';
import type { Principal } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { stdioClient } from '../e2e/harness.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { agentSession, callOf, ok, refused } from './session.js';

const fiona: Principal = { kind: 'actor', actor_id: 'fiona' };

describe('storymap end to end', () => {
  it('over HTTP at /mcp/storymap, beside governance’s create_project at /mcp, one process', () =>
    withApp(async (app) => {
      const all = surfacesOf(modules);
      const listening = await serveOverHttp({
        app,
        selection: resolveSurfaces(all, 'governance,system'),
        mounted: all,
        log: silent,
        host: '127.0.0.1',
        port: 0,
        stateful: false,
      });
      try {
        const token = await issueToken(app, fiona);
        const { client } = await httpClient(`${listening.url}/storymap`, { token });
        const call = callOf(client);
        const s = await agentSession(call);
        // the founder (fiona created the project: its owner) marks ready and approves
        await ok(call, 'update_stories', {
          project_id: s.project_id,
          stories: [{ id: s.upload.id, status: 'done' }],
        });
        await storymap(app).founderMark(
          { project_id: s.project_id, story_id: 'PB-2', to: 'ready_for_dev' },
          fiona,
        );
        await storymap(app).founderMark(
          { project_id: s.project_id, story_id: s.upload.id.slice(0, 8), to: 'approved' },
          fiona,
        );
        const story = await ok(call, 'get_story', { project_id: s.project_id, story_id: 'PB-1' });
        assert.equal(story.record.approved_by, 'fiona');
        const readiness = await ok(call, 'check_release_readiness', { project_id: s.project_id });
        assert.equal(readiness.release_order, 1);
        assert.deepEqual(readiness.counts, { total: 2, done: 1, in_progress: 0, to_build: 1 });
        // governance's create_project is the other tool of that name, at /mcp
        const gov = await httpClient(listening.url, { token });
        const refusedGov = await callOf(gov.client)('create_project', {
          project_id: 'g-1',
          name: 'x',
          idempotency_key: 'k1',
        });
        assert.equal(refusedGov.ok, false, 'governance creates projects as SYSTEM only');
        assert.equal(refusedGov.error!.code, 'forbidden');
        // a stranger cannot reach fiona's project
        const stranger = await httpClient(`${listening.url}/storymap`, {
          token: await issueToken(app, { kind: 'actor', actor_id: 'sam' }),
        });
        const denied = await refused(
          callOf(stranger.client),
          'get_vision',
          { project_id: s.project_id },
          'not_found',
        );
        assert.equal(denied.message, 'Project not found or access denied');
        await Promise.all([client.close(), gov.client.close(), stranger.client.close()]);
      } finally {
        await listening.close();
      }
    }));

  it('over stdio, the founder acting through `intentlog founder` beside the running server', () =>
    withDataDir(async (dir) => {
      const { client } = await stdioClient(dir, { args: ['--surface', 'storymap'] });
      const call = callOf(client);
      try {
        const s = await agentSession(call);
        await ok(call, 'update_stories', {
          project_id: s.project_id,
          stories: [{ id: s.upload.id, status: 'done' }],
        });
        const ready = await cliIn(dir, ['founder', 'ready', s.project_id, 'PB-2']);
        assert.equal(ready.code, 0, ready.stderr);
        assert.match(ready.stdout, /PB-2 is ready_for_dev/);
        const approve = await cliIn(dir, ['founder', 'approve', s.project_id, 'pb-1']);
        assert.equal(approve.code, 0, approve.stderr);
        const early = await cliIn(dir, ['founder', 'approve', s.project_id, 'PB-3']);
        assert.equal(early.code, 1);
        assert.match(early.stderr, /invalid_state: PB-3 is todo/);
        const todo = await cliIn(dir, ['founder', 'todo', s.project_id, '--json']);
        assert.deepEqual(
          JSON.parse(todo.stdout).items.map((i: { story_key: string }) => i.story_key),
          ['PB-3'],
        );
        const story = await ok(call, 'get_story', { project_id: s.project_id, story_id: 'PB-2' });
        assert.equal(story.status, 'ready_for_dev');
        assert.deepEqual(
          story.history.map((h: { via: string }) => h.via),
          ['founder_cli'],
        );
        const readiness = await ok(call, 'check_release_readiness', {
          project_id: s.project_id,
          release_order: 1,
        });
        assert.equal(readiness.ready, false);
        assert.deepEqual(readiness.verification_gaps, [
          { story: 'PB-1', gap: 'finished with no passing result' },
        ]);
      } finally {
        await client.close();
      }
    }));
});
