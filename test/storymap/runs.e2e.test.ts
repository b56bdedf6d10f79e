import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { runs } from '../../src/app/storymap/runs.js';
import type { Principal } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import type { App } from '../../src/app/app.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { callOf, ok, refused, VISION, type Call } from './session.js';

const fiona: Principal = { kind: 'actor', actor_id: 'fiona' };

/** A project with stories A…E: C needs A, D needs A and B, E needs C. */
const project = async (call: Call, name: string) => {
  const { project_id } = await ok(call, 'create_project', { name, idea: 'Print photo books' });
  await ok(call, 'set_vision', { project_id, answers: VISION });
  const made = await ok(call, 'create_stories', {
    project_id,
    stories: ['A upload', 'B crop', 'C arrange', 'D caption', 'E order'].map((title) => ({
      title,
      acceptance_criteria: [{ text: `${title} works`, priority: 'must' }],
    })),
  });
  const [a, b, c, d, e] = (made.stories as { id: string; key: string }[]).map((s) => s.id);
  await ok(call, 'update_stories', {
    project_id,
    stories: [
      { id: c, dependencies: [a] },
      { id: d, dependencies: [a, b] },
      { id: e, dependencies: [c] },
    ],
  });
  const keys = (made.stories as { key: string }[]).map((s) => s.key);
  return { project_id: project_id as string, ids: { a, b, c, d, e }, keys };
};

const withClient = (body: (app: App, call: Call) => Promise<void>) =>
  withApp(async (app) => {
    const all = surfacesOf(modules);
    const listening = await serveOverHttp({
      app,
      selection: resolveSurfaces(all, 'storymap'),
      mounted: all,
      log: silent,
      host: '127.0.0.1',
      port: 0,
      stateful: false,
    });
    try {
      const { client } = await httpClient(`${listening.url}/storymap`, {
        token: await issueToken(app, fiona),
      });
      await body(app, callOf(client));
      await client.close();
    } finally {
      await listening.close();
    }
  });

const done = (call: Call, project_id: string, ...ids: (string | undefined)[]) =>
  ok(call, 'update_stories', { project_id, stories: ids.map((id) => ({ id, status: 'done' })) });

describe('build runs through a real MCP client over HTTP', () => {
  it('hands stories out in dependency order with concurrency 2', () =>
    withClient(async (app, call) => {
      const p = await project(call, 'Photo Book');
      // the founder writes the run in an order that ignores the dependencies: E first
      const created = await runs(app).create(
        {
          project_id: p.project_id,
          title: 'First release',
          stories: ['PB-5', 'PB-4', 'PB-3', 'PB-2', 'PB-1'],
          concurrency: 2,
          on_failure: 'continue',
        },
        fiona,
      );
      assert.equal(created.result.key, 'R-1');
      // one agent session per story handed out: each is started and claimed for its session
      let agents = 0;
      const next = (args = {}) =>
        ok(call, 'next_in_run', {
          project_id: p.project_id,
          run: 'R-1',
          session: `agent-${++agents}`,
          ...args,
        });

      const draft = await next();
      assert.equal(draft.state, 'draft');
      assert.match(draft.message, /approve/);
      const shown = await ok(call, 'get_run', { project_id: p.project_id, run: 'R-1' });
      assert.deepEqual(
        shown.stories.map((s: { key: string }) => s.key),
        ['PB-2', 'PB-1', 'PB-4', 'PB-3', 'PB-5'],
        'build order: never before a dependency, else the founder’s order',
      );
      assert.equal(shown.next, 'wait for a person to approve the run');

      await runs(app).move({ project_id: p.project_id, run: 'R-1' }, 'ApproveRun', fiona);
      const first = await next();
      assert.deepEqual(
        [first.key, first.status, first.run.position, first.run.of],
        ['PB-2', 'in_progress', 1, 5],
      );
      const second = await next();
      assert.equal(second.key, 'PB-1');
      assert.ok(
        second.warnings.some(
          (w: string) => /other stories are in progress/i.test(w) && /PB-2/.test(w),
        ),
        second.warnings.join('; '),
      );
      assert.ok(
        !second.warnings.some((w: string) => /not claimed|already in progress/.test(w)),
        second.warnings.join('; '),
      );
      const held = await ok(call, 'get_story', { project_id: p.project_id, story_id: 'PB-1' });
      // the draft answer took agent-1, PB-2 agent-2; explicit names are scoped to the actor
      assert.match(held.claim?.session_id ?? held.build?.claim?.session_id, /\/agent-3$/);
      const full = await next();
      assert.equal(full.state, 'full');

      await done(call, p.project_id, p.ids.b);
      // PB-4 needs PB-1 too, PB-3 needs PB-1: nothing can start while PB-1 is built
      const waiting = await next();
      assert.equal(waiting.state, 'waiting');
      assert.deepEqual(
        waiting.waiting_on.map((w: { key: string }) => w.key),
        ['PB-1'],
      );

      await done(call, p.project_id, p.ids.a);
      assert.equal((await next()).key, 'PB-4');
      assert.equal((await next()).key, 'PB-3');
      assert.equal((await next()).state, 'full');
      await done(call, p.project_id, p.ids.c);
      assert.equal((await next()).key, 'PB-5');
      await done(call, p.project_id, p.ids.d, p.ids.e);

      // a second run lined up as a draft is named when the first completes
      await runs(app).create(
        {
          project_id: p.project_id,
          title: 'Next phase',
          stories: ['PB-1'],
          concurrency: 1,
          on_failure: 'stop',
        },
        fiona,
      );
      const complete = await next();
      assert.equal(complete.state, 'complete');
      assert.equal(complete.next_run.key, 'R-2');
      const after = await ok(call, 'get_run', { project_id: p.project_id, run: created.result.id });
      assert.deepEqual(after.progress, {
        total: 5,
        done: 5,
        in_progress: 0,
        to_build: 0,
        cancelled: 0,
        percent: 100,
      });
      await refused(call, 'get_run', { project_id: p.project_id, run: 'R-9' }, 'not_found');
    }));

  it('two sessions asking at once never exceed the concurrency nor share a story', () =>
    withClient(async (app, call) => {
      const p = await project(call, 'Race');
      await runs(app).create(
        {
          project_id: p.project_id,
          title: 'Roots',
          stories: ['RAC-1', 'RAC-2'],
          concurrency: 2,
          on_failure: 'stop',
        },
        fiona,
      );
      await runs(app).move({ project_id: p.project_id, run: 'R-1' }, 'ApproveRun', fiona);
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => ok(call, 'next_in_run', { project_id: p.project_id, run: 'R-1' })),
      );
      const started = answers
        .filter((a) => a.key)
        .map((a) => a.key)
        .sort();
      assert.deepEqual(started, ['RAC-1', 'RAC-2']);
      assert.deepEqual(
        answers.filter((a) => a.state).map((a) => a.state),
        ['full', 'full'],
      );
    }));

  it('pause, stop on failure, and the founder’s to-do across every project', () =>
    withClient(async (app, call) => {
      const one = await project(call, 'Alpha');
      const two = await project(call, 'Beta');
      await runs(app).create(
        {
          project_id: one.project_id,
          title: 'Go',
          stories: ['ALP-1', 'ALP-3'],
          concurrency: 1,
          on_failure: 'stop',
        },
        fiona,
      );
      const todo = await ok(call, 'get_founder_todo', {});
      assert.equal(todo.projects, 2);
      assert.deepEqual(
        new Set(todo.items.map((i: { project_id: string }) => i.project_id)),
        new Set([one.project_id, two.project_id]),
      );
      assert.equal(todo.items[0].kind, 'run_approval', 'the draft run unblocks the most stories');
      assert.equal(todo.items[0].unblocks, 2);
      const onlyTwo = await ok(call, 'get_founder_todo', { project_id: two.project_id });
      assert.ok(
        onlyTwo.items.every((i: { project_id: string }) => i.project_id === two.project_id),
      );

      await runs(app).move({ project_id: one.project_id, run: 'R-1' }, 'ApproveRun', fiona);
      await runs(app).move(
        { project_id: one.project_id, run: 'R-1', reason: 'holiday' },
        'PauseRun',
        fiona,
      );
      const paused = await ok(call, 'next_in_run', { project_id: one.project_id, run: 'R-1' });
      assert.equal(paused.state, 'paused');
      assert.match(paused.message, /holiday/);
      await runs(app).move({ project_id: one.project_id, run: 'R-1' }, 'ResumeRun', fiona);
      const a = await ok(call, 'next_in_run', { project_id: one.project_id, run: 'R-1' });
      assert.equal(a.key, 'ALP-1');
      await ok(call, 'update_stories', {
        project_id: one.project_id,
        stories: [{ id: one.ids.a, status: 'needs_rework' }],
      });
      const stopped = await ok(call, 'next_in_run', { project_id: one.project_id, run: 'R-1' });
      assert.equal(stopped.state, 'stopped');
      assert.match(stopped.message, /ALP-1 needs rework/);
      await runs(app).move({ project_id: one.project_id, run: 'R-1' }, 'CancelRun', fiona);
      assert.equal(
        (await ok(call, 'next_in_run', { project_id: one.project_id, run: 'R-1' })).state,
        'cancelled',
      );
    }));
});
