import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { ALL, CORE, localSession, RESOURCES, STANDARD, withLinkedRoot } from './local-fixture.js';
import { callOf, ok, refused, type Call } from './session.js';

const read = async (client: Client, uri: string) => {
  const { contents } = await client.readResource({ uri });
  const [first] = contents as { text: string; mimeType: string }[];
  return first!;
};
const readJson = async (client: Client, uri: string) =>
  JSON.parse((await read(client, uri)).text) as Record<string, unknown>;

/** Runs the body over a seeded, linked project with a local client at `mode`. */
const inMode = (mode: string, body: (s: { local: Client; call: Call }) => Promise<void>) =>
  withApp(async (app) => {
    const s = await localSession(app, mode);
    await withLinkedRoot(s.project_id, () => body(s));
    await s.local.close();
    await s.hosted.close();
  });

describe('storymap-local: modes', () => {
  const expected: Record<string, string[]> = { core: CORE, standard: STANDARD, all: ALL };
  for (const [mode, tools] of Object.entries(expected))
    it(`${mode}: serves ${tools.length} tools, refuses the others naming the mode they need`, () =>
      inMode(mode, async ({ local, call }) => {
        const listed = (await local.listTools()).tools.map((t) => t.name);
        assert.deepEqual(listed.sort(), [...tools].sort());
        for (const t of (await local.listTools()).tools)
          assert.ok(!('project_id' in (t.inputSchema.properties ?? {})), `${t.name}: project_id`);
        for (const name of ALL.filter((t) => !tools.includes(t))) {
          const needs = STANDARD.includes(name) ? 'standard' : 'all';
          const error = await refused(call, name, {}, 'mode_required');
          assert.equal(error.details.mode_needed, needs, name);
          assert.equal(error.details.mode, mode);
          assert.match(error.message, new RegExp(`--surface storymap-local:${needs}`));
        }
      }));

  it('the default mode is all', () => {
    const [selected] = resolveSurfaces(surfacesOf(modules), 'storymap-local');
    assert.equal(selected!.tier, 'all');
  });
});

describe('storymap-local: resources', () => {
  for (const mode of ['core', 'all'])
    it(`serves the six resources of the linked project in mode ${mode}`, () =>
      inMode(mode, async ({ local }) => {
        const { resources } = await local.listResources();
        for (const uri of RESOURCES)
          assert.ok(
            resources.some((r) => r.uri === uri),
            `${uri} listed`,
          );
        const map = await read(local, 'intentlog://project/storymap');
        assert.equal(map.mimeType, 'text/markdown');
        assert.match(map.text, /## Release 1/);
        assert.match(map.text, /\*\*PB-1\*\* Upload photos · todo · must/);
        assert.match(map.text, /PB-3.*CANCELLED: stop all work/);
        const stories = await readJson(local, 'intentlog://project/stories');
        assert.deepEqual(
          (stories.stories as { key: string }[]).map((s) => s.key),
          ['PB-1', 'PB-2', 'PB-3'],
        );
        const status = await readJson(local, 'intentlog://project/status');
        assert.equal(status.total, 2, 'the cancelled story is left out of the counts');
        assert.match(status.text as string, /Cancelled \(stop all work on these\)/);
        const decisions = await readJson(local, 'intentlog://project/decisions');
        assert.deepEqual(
          (decisions.decisions as { title: string }[]).map((d) => d.title),
          ['Use S3'],
        );
        const model = (await readJson(local, 'intentlog://project/data-model')) as {
          entities: { story: { status: string[] }; activity: { values: string[] } };
        };
        assert.ok(model.entities.story.status.includes('ready_for_dev'));
        assert.deepEqual(model.entities.activity.values, ['Collect', 'Design', 'Buy']);
        const order = await readJson(local, 'intentlog://project/build-order');
        assert.deepEqual(
          (order.order as { key: string }[]).map((s) => s.key),
          ['PB-1', 'PB-2'],
        );
      }));

  it('refuses a read plainly when no project is linked', () =>
    withApp(async (app) => {
      const s = await localSession(app, 'core');
      const before = process.env.INTENTLOG_ROOT;
      process.env.INTENTLOG_ROOT = '/';
      try {
        await assert.rejects(
          s.local.readResource({ uri: 'intentlog://project/status' }),
          /not_linked: No story-map project is linked to \/: run `intentlog storymap link/,
        );
        const error = await refused(s.call, 'get_status', {}, 'not_linked');
        assert.match(error.message, /intentlog storymap link/);
      } finally {
        if (before === undefined) delete process.env.INTENTLOG_ROOT;
        else process.env.INTENTLOG_ROOT = before;
      }
      await s.local.close();
      await s.hosted.close();
    }));
});

describe('storymap-local: the cancelled-story hard stop', () => {
  it('refuses every tool naming a cancelled story but list_stories and get_status', () =>
    inMode('all', async ({ local, call }) => {
      const stopped = async (name: string, args: Record<string, unknown>) => {
        const answer = await local.callTool({ name, arguments: args });
        assert.equal(answer.isError, true, name);
        const text = (answer.content as { text: string }[])[0]!.text;
        assert.match(text, /^Development of PB-3 "Order the book" was cancelled \(out of scope\)/);
        assert.match(text, /Stop all work on this story/);
        const error = await refused(call, name, args, 'story_cancelled');
        assert.equal(error.details.hard_stop, true);
      };
      await stopped('add_note', { story_id: 'PB-3', note: 'x' });
      await stopped('mark_in_progress', { story_id: 'pb-3' });
      await stopped('mark_done', { story_id: 'PB-3' });
      await stopped('report_criteria', {
        story_id: 'PB-3',
        results: [{ criterion_id: 'abcd', status: 'pass' }],
      });
      await stopped('raise_blocker', {
        story_id: 'PB-3',
        summary: 's',
        attempting: 'a',
        failing: 'f',
        decision_needed: 'd',
      });
      await stopped('log_decision', { title: 't', description: 'd', story_id: 'PB-3' });
      await stopped('analyze_complexity', { story_ids: ['PB-1', 'PB-3'] });
      const listed = await ok(call, 'list_stories', { filter: 'Order' });
      assert.deepEqual(
        listed.stories.map((s: { key: string }) => s.key),
        ['PB-3'],
      );
      assert.equal(listed.stories[0].cancellation_reason, 'out of scope');
      const status = await ok(call, 'get_status');
      assert.match(status.text, /PB-3 Order the book: out of scope/);
    }));
});

describe('storymap-local: the tools that delegate to hosted tools of this build', () => {
  it('list_stories filters by status group or search term', () =>
    inMode('core', async ({ call }) => {
      const all = await ok(call, 'list_stories');
      assert.equal(all.stories.length, 3);
      assert.ok(all.stories[0].criteria, 'criteria are listed');
      const todo = await ok(call, 'list_stories', { filter: 'todo' });
      assert.deepEqual(
        todo.stories.map((s: { key: string }) => s.key),
        ['PB-1', 'PB-2', 'PB-3'],
      );
      assert.equal((await ok(call, 'list_stories', { filter: 'done' })).stories.length, 0);
      const found = await ok(call, 'list_stories', { filter: 'design' });
      assert.deepEqual(
        found.stories.map((s: { key: string }) => s.key),
        ['PB-2'],
      );
    }));

  it('add_note, get_status, create_story, get_context, decisions and import_prd act on the linked project', () =>
    inMode('all', async ({ call }) => {
      const note = await ok(call, 'add_note', { story_id: 'PB-1', note: 'use sharp' });
      assert.match(note.notes, /use sharp/);
      const status = await ok(call, 'get_status');
      assert.equal(status.total, 2);
      assert.equal(status.card.kind, 'progress');
      const made = await ok(call, 'create_story', {
        title: 'Share a book',
        activity: 'Buy',
        priority: 'could',
        effort: 'S',
      });
      assert.equal(made.story.key, 'PB-4');
      const context = await ok(call, 'get_context');
      assert.match(context.markdown, /### PB-4 Share a book/);
      const logged = await ok(call, 'log_decision', {
        title: 'Use WebP',
        description: 'smaller files',
        category: 'technical',
        story_id: 'PB-1',
      });
      const id = logged.decision_id as string;
      const amended = await ok(call, 'amend_decision', {
        decision_id: id.slice(0, 8),
        title: 'Use AVIF',
      });
      assert.equal(amended.title, 'Use AVIF');
      const retracted = await ok(call, 'retract_decision', { decision_id: id, reason: 'no' });
      assert.equal(retracted.retracted, true);
      const prd = await ok(call, 'import_prd', {
        prd: '# Checkout\n- Pay by card\n  - Given a card, when I pay, then I get a receipt',
      });
      assert.equal(prd.summary.stories, 1);
    }));

  it('refuses bad arguments before anything runs', () =>
    inMode('core', async ({ call }) => {
      await refused(call, 'add_note', { story_id: 'PB-1' }, 'invalid_argument');
      await refused(
        call,
        'add_note',
        { story_id: 'PB-1', note: 'x', project_id: 'p' },
        'invalid_argument',
      );
      await refused(call, 'add_note', { story_id: 'PB-99', note: 'x' }, 'not_found');
    }));
});

describe('storymap-local: the building loop through the hosted tools', () => {
  it('mark_in_progress starts and claims the story', () =>
    inMode('core', async ({ call }) => {
      await ok(call, 'mark_in_progress', { story_id: 'PB-1' });
      const listed = await ok(call, 'list_stories', { filter: 'in_progress' });
      assert.deepEqual(
        listed.stories.map((s: { key: string }) => s.key),
        ['PB-1'],
      );
    }));

  it('report_criteria records results by criterion prefix; mark_done completes', () =>
    inMode('core', async ({ call }) => {
      await ok(call, 'mark_in_progress', { story_id: 'PB-1' });
      const listed = await ok(call, 'list_stories', { filter: 'PB-1' });
      const criterion = listed.stories[0].criteria[0].id as string;
      await ok(call, 'report_criteria', {
        story_id: 'PB-1',
        results: [{ criterion_id: criterion.slice(0, 8), status: 'pass', attempt: 1 }],
      });
      await ok(call, 'mark_done', { story_id: 'PB-1', summary: 'uploads work' });
      const done = await ok(call, 'list_stories', { filter: 'done' });
      assert.deepEqual(
        done.stories.map((s: { key: string }) => s.key),
        ['PB-1'],
      );
    }));

  it('mark_done is refused while a must criterion is unreported, unless force', () =>
    inMode('core', async ({ call }) => {
      await ok(call, 'mark_in_progress', { story_id: 'PB-1' });
      const answer = await call('mark_done', { story_id: 'PB-1' });
      const done = await ok(call, 'list_stories', { filter: 'done' });
      assert.equal(done.stories.length, 0, `not done: ${JSON.stringify(answer)}`);
      await ok(call, 'mark_done', { story_id: 'PB-1', force: true });
      assert.equal((await ok(call, 'list_stories', { filter: 'done' })).stories.length, 1);
    }));

  it('raise_blocker records the decision needed', () =>
    inMode('core', async ({ call }) => {
      const r = await ok(call, 'raise_blocker', {
        story_id: 'PB-1',
        summary: 'S3 credentials',
        attempting: 'upload',
        failing: 'no bucket',
        decision_needed: 'which bucket?',
        attempts: 2,
      });
      assert.match(JSON.stringify(r), /which bucket\?/);
    }));

  it('analyze_complexity scores the stories named', () =>
    inMode('all', async ({ call }) => {
      const r = await ok(call, 'analyze_complexity', { story_ids: ['PB-1'] });
      assert.match(JSON.stringify(r), /PB-1/);
    }));

  it('research searches the project', () =>
    inMode('all', async ({ call }) => {
      const r = await ok(call, 'research', { query: 'photos' });
      assert.match(JSON.stringify(r), /Upload photos/);
    }));
});

describe('storymap-local over HTTP', () => {
  it('is mounted at /mcp/storymap-local/<mode>, with the same mode refusal', () =>
    withApp(async (app) => {
      const all = surfacesOf(modules);
      const s = await localSession(app, 'core');
      const listening = await serveOverHttp({
        app,
        selection: resolveSurfaces(all, 'system'),
        mounted: all,
        log: silent,
        host: '127.0.0.1',
        port: 0,
        stateful: false,
      });
      try {
        await withLinkedRoot(s.project_id, async () => {
          const token = await issueToken(app);
          const { client } = await httpClient(`${listening.url}/storymap-local/standard`, {
            token,
          });
          const call = callOf(client);
          assert.equal((await client.listTools()).tools.length, STANDARD.length);
          const error = await refused(call, 'research', { query: 'x' }, 'mode_required');
          assert.equal(error.details.mode_needed, 'all');
          assert.equal((await ok(call, 'get_status')).total, 2);
          await client.close();
        });
      } finally {
        await listening.close();
        await s.local.close();
        await s.hosted.close();
      }
    }));
});
