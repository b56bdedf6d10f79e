import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { silent } from '../mcp/harness.js';
import { tinyModule } from './tiny-module.js';

const registry = [...modules, tinyModule];

type Envelope = {
  ok: boolean;
  note_id?: string | null;
  result?: { notes: number; shouted: string };
  error?: { code: string };
};

describe('a context registered through its module declaration alone', () => {
  it('is served at its own path beside a surface it clashes with, with its own vocabulary', async () => {
    const app = await openIntentlog({
      store: 'memory',
      dataDir: '/nonexistent',
      modules: registry,
    });
    const listening = await serveOverHttp({
      app,
      selection: resolveSurfaces(surfacesOf(registry), 'governance,system'),
      mounted: surfacesOf(registry),
      log: silent,
      host: '127.0.0.1',
      port: 0,
      stateful: false,
    });
    try {
      const token = await issueToken(app);
      const tiny = await httpClient(`${listening.url}/tiny`, { token });
      const governance = await httpClient(`${listening.url}/governance`, { token });
      const tinyTools = (await tiny.client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(tinyTools, ['create_project']);
      const governanceTools = (await governance.client.listTools()).tools.map((t) => t.name);
      assert.ok(governanceTools.includes('claim_work_package'));

      const call = async (args: Record<string, unknown>) =>
        (await tiny.client.callTool({ name: 'create_project', arguments: args }))
          .structuredContent as Envelope;
      const noted = await call({ project_id: 'p/1', note_id: 'n:1', text: 'hello' });
      assert.equal(noted.ok, true);
      assert.equal(noted.note_id, 'n:1');
      assert.deepEqual(noted.result, { notes: 1, shouted: 'HELLO' });

      const empty = await call({ project_id: 'p/1', note_id: 'n:2', text: ' ' });
      assert.deepEqual([empty.ok, empty.error?.code, empty.note_id], [false, 'TINY_EMPTY', 'n:2']);
      const bad = await call({ project_id: 'p/1', note_id: 'n:3' });
      assert.deepEqual([bad.ok, bad.error?.code], [false, 'TINY_BAD_INPUT']);

      // the same tool name on governance's path is governance's create_project
      const created = await governance.client.callTool({
        name: 'create_project',
        arguments: { project_id: 'gov', name: 'Gov', idempotency_key: 'k1' },
      });
      assert.equal((created.structuredContent as Envelope).ok, true);

      const missing = await fetch(`${listening.url}/nope`, { method: 'POST', body: '{}' });
      assert.equal(missing.status, 404);
      await tiny.client.close();
      await governance.client.close();
    } finally {
      await listening.close();
      await app.close();
    }
  });

  it('refuses an event type two contexts declare, naming both', async () => {
    const twin = { ...tinyModule, name: 'twin', projectors: [] };
    await assert.rejects(
      openIntentlog({ store: 'memory', dataDir: '/nonexistent', modules: [tinyModule, twin] }),
      /tiny\.noted is declared by both tiny and twin/,
    );
  });
});
