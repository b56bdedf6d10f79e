import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import {
  Card,
  CARD_MIME,
  CARD_URI,
  cardMeta,
  storyCardOf,
  withCard,
} from '../../src/mcp/storymap/cards.js';
import { connect, withApp } from '../mcp/harness.js';
import { seedProject, withLinkedRoot } from './local-fixture.js';
import { callOf, ok } from './session.js';

const repoFile = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
const CARD_TOOLS = [
  'get_story',
  'start_story',
  'complete_story',
  'get_status',
  'check_release_readiness',
  'get_build_order',
];

describe('story map cards (MCP Apps)', () => {
  it('serves one self-contained card resource, linked from the card-bearing tools', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const { resources } = await client.listResources();
      const card = resources.find((r) => r.uri === CARD_URI);
      assert.equal(card?.mimeType, CARD_MIME);
      const { contents } = await client.readResource({ uri: CARD_URI });
      const html = (contents[0] as { text: string; mimeType: string }).text;
      assert.equal((contents[0] as { mimeType: string }).mimeType, CARD_MIME);
      assert.equal(html, await repoFile('web/card.html'));
      assert.match(html, /ui\/notifications\/tool-result/);
      assert.doesNotMatch(html, /https?:\/\//, 'no network: no CDN, no remote assets');
      assert.doesNotMatch(html, /<(script|link|img)[^>]+(src|href)=/, 'everything inline');
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const meta = tool._meta as { ui?: { resourceUri?: string } } | undefined;
        if (CARD_TOOLS.includes(tool.name)) {
          assert.equal(meta?.ui?.resourceUri, CARD_URI, `${tool.name} links the card`);
          assert.equal((tool._meta as Record<string, unknown>)['ui/resourceUri'], CARD_URI);
        } else assert.equal(meta?.ui, undefined, `${tool.name} renders no card`);
      }
      await client.close();
    }));

  it('puts the card in structuredContent beside the fields it shows', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const call = callOf(client);
      const project_id = await seedProject(call);

      const story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      const storyCard = Card.parse(story.card);
      assert.equal(storyCard.kind, 'story');
      assert.ok(storyCard.kind === 'story');
      assert.equal(storyCard.key, story.key);
      assert.equal(storyCard.title, story.title);
      assert.deepEqual(storyCard.criteria, { total: 1, passing: 0, must: 1 });
      assert.equal(storyCard.criteria_list[0]!.id, story.acceptance_criteria[0].id);
      const cancelled = Card.parse(
        (await ok(call, 'get_story', { project_id, story_id: 'PB-3' })).card,
      );
      assert.ok(cancelled.kind === 'story' && cancelled.cancelled);
      const started = await ok(call, 'start_story', {
        project_id,
        story_id: 'PB-1',
        session: 'card-test',
      });
      const startedCard = Card.parse(started.card);
      assert.ok(startedCard.kind === 'story');
      assert.equal(startedCard.key, 'PB-1');
      assert.equal(startedCard.status, 'in_progress');
      const completed = await ok(call, 'complete_story', {
        project_id,
        story_id: 'PB-1',
        summary: 'Upload works.',
        force: true,
        session: 'card-test',
      });
      const completedCard = Card.parse(completed.card);
      assert.ok(completedCard.kind === 'story');
      assert.deepEqual(
        [completedCard.id, completedCard.key, completedCard.title, completedCard.status],
        [completed.story_id, 'PB-1', completed.title, 'done'],
      );
      assert.equal(completedCard.claimed_by, null, 'complete_story releases the claim');
      assert.deepEqual(
        completedCard.criteria_list.map((c) => c.id),
        completed.acceptance_criteria.map((c: { id: string }) => c.id),
        'structuredContent carries every criterion the card shows',
      );
      assert.match(completed.text, /PB-1 .* is done/);

      const status = await ok(call, 'get_status', { project_id });
      const progress = Card.parse(status.card);
      assert.ok(progress.kind === 'progress');
      assert.equal(progress.total, status.total);
      assert.equal(progress.percent, status.percent);
      assert.match(progress.title, /^Photo Book: 1\/2 complete/);

      const readiness = await ok(call, 'check_release_readiness', { project_id });
      const ready = Card.parse(readiness.card);
      assert.ok(ready.kind === 'progress');
      assert.equal(ready.ready, readiness.ready);
      assert.deepEqual(ready.blocking, readiness.blocking);

      const order = await ok(call, 'get_build_order', { project_id });
      const built = Card.parse(order.card);
      assert.deepEqual(
        built,
        { kind: 'build_order', project_id },
        'the card draws the result’s own lists: no second copy of them',
      );
      assert.deepEqual(
        (order.order as { key: string; depends_on: string[] }[]).map((s) => [
          s.key,
          s.depends_on.length,
        ]),
        [
          ['PB-1', 0],
          ['PB-2', 1],
        ],
      );
      await client.close();
    }));

  it('exports the helpers the building loop uses for its own cards', () => {
    assert.deepEqual(cardMeta('story').ui, { resourceUri: CARD_URI });
    const card = storyCardOf({
      id: 'u1',
      key: 'PB-7',
      title: 'T',
      status: 'in_progress',
      priority: 'must',
      effort: 'M',
      claim: { held_by: 'session-1' },
      acceptance_criteria: [
        { id: 'c1', text: 'a', priority: 'must', last_result: { status: 'pass' } },
        { id: 'c2', text: 'b', priority: 'should', last_result: 'fail' },
      ],
    });
    assert.ok(card.kind === 'story');
    assert.deepEqual(card.criteria, { total: 2, passing: 1, must: 1 });
    assert.equal(card.claimed_by, 'session-1');
    assert.deepEqual(Object.keys(withCard({ story_id: 'u1' }, card)), ['story_id', 'card']);
  });
});

describe('story map prompts', () => {
  it('serves spec-my-idea and intentlog-workflow on the hosted surface; spec-my-idea is the instructions', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name).sort(), ['intentlog-workflow', 'spec-my-idea']);
      for (const p of prompts) assert.equal(p.arguments?.length ?? 0, 0, `${p.name} takes none`);
      const spec = await repoFile('prompts/spec-my-idea.md');
      const got = await client.getPrompt({ name: 'spec-my-idea' });
      assert.equal((got.messages[0]!.content as { text: string }).text, spec);
      assert.ok(client.getInstructions()?.includes(spec), 'the server instructions are the text');
      const workflow = await client.getPrompt({ name: 'intentlog-workflow' });
      const text = (workflow.messages[0]!.content as { text: string }).text;
      for (const step of [
        'check_release_readiness',
        'start_story',
        'save_tests',
        'report_criteria',
        'raise_blocker',
        'complete_story',
      ])
        assert.match(text, new RegExp(`\`${step}\``), step);
      await client.close();
    }));

  it('serves the local workflow, in local tool names, on the local surface', () =>
    withApp(async (app) => {
      const hosted = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const project_id = await seedProject(callOf(hosted));
      await withLinkedRoot(project_id, async () => {
        const local = await connect(
          app,
          resolveSurfaces(surfacesOf(modules), 'storymap-local:core'),
        );
        const { prompts } = await local.listPrompts();
        assert.deepEqual(
          prompts.map((p) => p.name),
          ['intentlog-workflow'],
        );
        const got = await local.getPrompt({ name: 'intentlog-workflow' });
        const text = (got.messages[0]!.content as { text: string }).text;
        assert.equal(text, await repoFile('prompts/intentlog-workflow-local.md'));
        for (const tool of ['mark_in_progress', 'report_criteria', 'raise_blocker', 'mark_done'])
          assert.match(text, new RegExp(`\`${tool}\``));
        const { tools } = await local.listTools();
        const status = tools.find((t) => t.name === 'get_status');
        assert.equal(
          (status?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri,
          CARD_URI,
          'the local get_status renders the progress card too',
        );
        await local.close();
      });
      await hosted.close();
    }));
});
