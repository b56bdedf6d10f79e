import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { connect, withApp } from '../mcp/harness.js';
import { seedProject } from './local-fixture.js';
import { callOf } from './session.js';

type Message = { jsonrpc: '2.0'; id?: number; method?: string; params?: unknown; result?: unknown };
type Listener = (event: { data?: Message; target?: unknown }) => void;

/**
 * The card's script run against the smallest host it talks to (no browser here): a parent
 * window that answers `ui/initialize` and `tools/call`, and the one element the card draws in.
 * It checks the view's protocol and what it draws from real results.
 */
const cardView = async (callTool: (params: unknown) => Promise<unknown>) => {
  const html = await readFile(new URL('../../web/card.html', import.meta.url), 'utf8');
  const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
  const sent: Message[] = [];
  const listeners: Record<string, Listener[]> = {};
  const root = {
    className: 'muted',
    innerHTML: '',
    listeners: [] as Listener[],
    addEventListener: (_type: string, l: Listener) => root.listeners.push(l),
  };
  const note = { textContent: '' };
  const deliver = (data: Message) => {
    for (const l of listeners.message ?? []) l({ data });
  };
  const parent = {
    postMessage: (message: Message) => {
      sent.push(message);
      if (message.method === 'ui/initialize')
        queueMicrotask(() =>
          deliver({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2026-01-26' } }),
        );
      if (message.method === 'tools/call')
        void callTool(message.params).then((result) =>
          deliver({ jsonrpc: '2.0', id: message.id, result }),
        );
    },
  };
  const window = {
    parent,
    addEventListener: (type: string, l: Listener) => (listeners[type] ??= []).push(l),
  };
  const document = {
    body: { scrollHeight: 120 },
    getElementById: (id: string) => (id === 'card' ? root : id === 'note' ? note : null),
  };
  runInNewContext(script, { window, document, String, Math, Object, Number, Map, Promise });
  await new Promise((r) => setTimeout(r, 10));
  return {
    sent,
    root,
    note,
    result: (structuredContent: unknown) =>
      deliver({
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-result',
        params: { structuredContent },
      }),
    click: async (dataset: Record<string, string>) => {
      const button = { dataset };
      const target = { closest: () => button };
      for (const l of root.listeners) l({ target });
      await new Promise((r) => setTimeout(r, 300));
    },
  };
};

describe('the card view (web/card.html)', () => {
  it('initializes with the host, then draws story, progress and build-order cards from real results', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })).structuredContent;
      const project_id = await seedProject(callOf(client));
      const view = await cardView((params) =>
        client.callTool(params as { name: string; arguments: Record<string, unknown> }),
      );
      assert.deepEqual(
        view.sent.slice(0, 2).map((m) => m.method),
        ['ui/initialize', 'ui/notifications/initialized'],
      );

      view.result(await call('get_story', { project_id, story_id: 'PB-1' }));
      assert.match(view.root.innerHTML, /PB-1.*Upload photos/);
      assert.match(view.root.innerHTML, /0\/1 criteria passing \(1 must\)/);
      assert.match(view.root.innerHTML, /\[unreported\].*Given a photo, then it shows/);
      view.result(await call('get_story', { project_id, story_id: 'PB-3' }));
      assert.match(view.root.innerHTML, /cancelled: stop all work/);

      view.result(await call('get_status', { project_id }));
      assert.match(view.root.innerHTML, /0\/2 complete \(0%\)/);
      view.result(await call('check_release_readiness', { project_id }));
      assert.match(view.root.innerHTML, /not ready/);

      view.result(await call('get_build_order', { project_id }));
      assert.match(view.root.innerHTML, /PB-2 Arrange pages.*after PB-1/);
      assert.equal(view.sent.at(-1)?.method, 'ui/notifications/size-changed');

      // ↑ on PB-2 swaps the two build sequences; PB-2 depends on PB-1, so the order keeps it second
      await view.click({ move: '1', by: '-1' });
      const calls = view.sent.filter((m) => m.method === 'tools/call');
      assert.deepEqual(
        calls.map((m) => (m.params as { name: string }).name),
        ['update_stories', 'get_build_order'],
      );
      const story = (await call('get_story', { project_id, story_id: 'PB-2' })) as {
        result: { build_sequence: number };
      };
      assert.equal(story.result.build_sequence, 1, 'the swap was written');
      assert.match(view.note.textContent, /^PB-2 keeps its place: the build order never puts/);
      assert.match(view.root.innerHTML, /PB-1 Upload photos[\s\S]*PB-2 Arrange pages/);
      // the first story has nothing above it: nothing is sent
      await view.click({ move: '0', by: '-1' });
      assert.equal(view.sent.filter((m) => m.method === 'tools/call').length, 2, 'no story above');

      view.result(await call('get_story', { project_id, story_id: 'PB-99' }));
      assert.match(view.root.innerHTML, /No story found matching &quot;PB-99&quot;/);
      await client.close();
    }));
});
