import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { silent, withApp } from '../mcp/harness.js';
import { initializeBody, issueToken, post } from '../mcp/http-harness.js';

const serving = (requireAuthAll: boolean, body: (url: string, token: string) => Promise<void>) =>
  withApp(async (app) => {
    const listening = await serveOverHttp({
      app,
      selection: resolveSurfaces(surfacesOf(modules), 'system'),
      mounted: surfacesOf(modules),
      log: silent,
      host: '127.0.0.1',
      port: 0,
      stateful: false,
      requireAuthAll,
    });
    try {
      await body(listening.url, await issueToken(app));
    } finally {
      await listening.close();
    }
  });

const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const VERSION = { 'mcp-protocol-version': '2025-11-25' };

const challengeOf = (response: Response) => {
  const header = response.headers.get('www-authenticate') ?? '';
  return /resource_metadata="([^"]+)"/.exec(header)?.[1];
};

describe('sign-in discovery', () => {
  it('--require-auth: a claude-mcp-list-style probe (initialize, tools/list) without a token gets 401 pointing at the metadata', () =>
    serving(true, async (url, token) => {
      for (const body of [initializeBody('2025-11-25'), LIST]) {
        const refused = await post(url, body, VERSION);
        assert.equal(refused.status, 401);
        const metadata = challengeOf(refused);
        assert.equal(metadata, `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
        const found = (await (await fetch(metadata!)).json()) as { resource: string };
        assert.equal(found.resource, url);
      }
      const wrong = await post(url, LIST, { ...VERSION, authorization: 'Bearer nope' });
      assert.equal(wrong.status, 401);
      assert.match(wrong.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      const allowed = await post(url, LIST, { ...VERSION, authorization: `Bearer ${token}` });
      assert.equal(allowed.status, 200);
    }));

  it('by default discovery stays open (governance.md) and a tool call without a token is 401 with resource_metadata', () =>
    serving(false, async (url) => {
      assert.equal((await post(url, initializeBody('2025-11-25'), VERSION)).status, 200);
      assert.equal((await post(url, LIST, VERSION)).status, 200);
      const call = {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'server_info', arguments: {} },
      };
      const refused = await post(`${url}/system`, call, VERSION);
      assert.equal(refused.status, 401);
      assert.equal(
        challengeOf(refused),
        `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp/system`,
      );
      const other = await fetch(
        `${new URL(url).origin}/.well-known/oauth-protected-resource/elsewhere`,
      );
      assert.equal(other.status, 404);
    }));
});
