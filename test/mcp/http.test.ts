import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  VERSIONS_2025,
  httpClient,
  initializeBody,
  issueToken,
  post,
  withServer,
} from './http-harness.js';

const whoamiCall = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {} },
};

/** A request with a Host header fetch() would not let us forge. */
const rawPost = (url: string, headers: Record<string, string>, body: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });

for (const stateful of [false, true])
  describe(`Streamable HTTP, ${stateful ? 'stateful' : 'stateless'}`, () => {
    for (const version of VERSIONS_2025)
      it(`initializes at ${version}, lists tools without credentials and calls one with a token`, () =>
        withServer({ stateful }, async ({ app, url }) => {
          const anonymous = await httpClient(url, { version });
          assert.equal(anonymous.client.getNegotiatedProtocolVersion(), version);
          assert.equal(anonymous.transport.sessionId !== undefined, stateful);
          const { tools } = await anonymous.client.listTools();
          assert.ok(tools.some((t) => t.name === 'whoami'));
          await anonymous.client.ping();
          await assert.rejects(anonymous.client.callTool({ name: 'whoami', arguments: {} }));
          await anonymous.client.close();

          const token = await issueToken(app, { kind: 'actor', actor_id: 'alice' });
          const { client } = await httpClient(url, { version, token });
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          assert.deepEqual((result.structuredContent as { result: unknown }).result, {
            principal: { kind: 'actor', actor_id: 'alice' },
            memberships: [],
          });
          await client.close();
        }));
  });

describe('Streamable HTTP, protocol 2026-07-28', () => {
  it('serves the per-request era too, with the same credentials rule', () =>
    withServer({}, async ({ app, url }) => {
      const pinned = { versionNegotiation: { mode: { pin: '2026-07-28' } } };
      const anonymous = new Client({ name: 'test', version: '1' }, pinned);
      await anonymous.connect(new StreamableHTTPClientTransport(new URL(url)));
      assert.equal(anonymous.getProtocolEra(), 'modern');
      assert.ok((await anonymous.listTools()).tools.some((t) => t.name === 'server_info'));
      await assert.rejects(anonymous.callTool({ name: 'server_info', arguments: {} }));
      await anonymous.close();

      const token = await issueToken(app);
      const headers = { Authorization: `Bearer ${token}` };
      const client = new Client({ name: 'test', version: '1' }, pinned);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
      );
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      assert.deepEqual((result.structuredContent as { result: unknown }).result, { text: 'hi' });
      await client.close();
    }));
});

describe('Streamable HTTP: refusals', () => {
  it('tools/call without a token is 401 with a Bearer challenge; a bad token likewise', () =>
    withServer({}, async ({ url }) => {
      const missing = await post(url, whoamiCall);
      assert.equal(missing.status, 401);
      assert.match(
        missing.headers.get('www-authenticate') ?? '',
        /^Bearer realm="intentlog", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
      const body = (await missing.json()) as { id: number; error: { code: number } };
      assert.equal(body.id, 7);
      const bad = await post(url, whoamiCall, { authorization: 'Bearer il_not_a_token' });
      assert.equal(bad.status, 401);
      assert.match(bad.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      // discovery never needs one
      const list = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      assert.equal(list.status, 200);
    }));

  it('a revoked token is refused', () =>
    withServer({}, async ({ app, url }) => {
      const issued = await app.tokens.issue({ kind: 'system' }, null, { kind: 'system' });
      await app.waitFor(issued.position);
      const ok = await post(url, whoamiCall, { authorization: `Bearer ${issued.token}` });
      assert.equal(ok.status, 200);
      await app.waitFor(await app.tokens.revoke(issued.token_id, { kind: 'system' }));
      const refused = await post(url, whoamiCall, { authorization: `Bearer ${issued.token}` });
      assert.equal(refused.status, 401);
    }));

  it('GET /mcp is 405 (stateless); other paths 404', () =>
    withServer({}, async ({ url }) => {
      const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assert.equal((await fetch(url.replace('/mcp', '/other'))).status, 404);
    }));

  it('a body over the limit is 413', () =>
    withServer({ maxBodyBytes: 4096 }, async ({ url }) => {
      const big = {
        ...whoamiCall,
        params: { name: 'echo', arguments: { text: 'x'.repeat(8192) } },
      };
      const res = await post(url, big);
      assert.equal(res.status, 413);
      const small = await post(url, initializeBody('2025-06-18'));
      assert.equal(small.status, 200);
    }));

  it('a forged Host or a foreign Origin is refused (DNS rebinding)', () =>
    withServer({}, async ({ url }) => {
      const body = JSON.stringify(initializeBody('2025-11-25'));
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      assert.equal(await rawPost(url, { ...headers, host: 'evil.example.com' }, body), 403);
      assert.equal(await rawPost(url, { ...headers, host: 'evil.example.com:80' }, body), 403);
      const port = new URL(url).port;
      assert.equal(await rawPost(url, { ...headers, host: `localhost:${port}` }, body), 200);
      const origin = await post(url, initializeBody('2025-11-25'), {
        origin: 'http://evil.example.com',
      });
      assert.equal(origin.status, 403);
      const local = await post(url, initializeBody('2025-11-25'), {
        origin: 'http://localhost:3000',
      });
      assert.equal(local.status, 200);
    }));

  it('JSON-RPC batches and non-JSON bodies are refused with JSON-RPC errors', () =>
    withServer({}, async ({ url }) => {
      const batch = await post(url, [initializeBody('2025-06-18')]);
      assert.equal(batch.status, 400);
      assert.equal(((await batch.json()) as { error: { code: number } }).error.code, -32600);
      const garbage = await post(url, '{not json');
      assert.equal(garbage.status, 400);
      assert.equal(((await garbage.json()) as { error: { code: number } }).error.code, -32700);
    }));
});

describe('Streamable HTTP: shutdown', () => {
  it('finishes a call in flight before closing, and refuses new ones meanwhile', () =>
    withServer({}, async ({ app, url, listening, held }) => {
      const token = await issueToken(app);
      const hold = {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'hold', arguments: {} },
      };
      const inFlight = post(url, hold, { authorization: `Bearer ${token}` });
      await held.reached;
      let closed = false;
      const closing = listening.close().then(() => (closed = true));
      const during = await post(url, initializeBody('2025-06-18')).catch(() => undefined);
      // a new request either finds the port closed or gets 503; never a half-served call
      if (during) assert.equal(during.status, 503);
      assert.equal(closed, false, 'closed while a call was in flight');
      held.open();
      const res = await inFlight;
      assert.equal(res.status, 200);
      const body = (await res.json()) as { result: { structuredContent: { result: unknown } } };
      assert.deepEqual(body.result.structuredContent.result, { released: true });
      await closing;
      assert.equal(closed, true);
    }));
});
