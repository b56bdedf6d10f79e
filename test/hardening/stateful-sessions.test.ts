// `serve --stateful` sessions belong to the principal that opened them (issue 40, point 1).
// They were bearer capabilities: GET and DELETE were served without a token, bob's token ran as
// bob inside alice's session, `initialize` opened any number of sessions without a token, each
// kept 30 minutes.
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../../src/app/app.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { callInfo, sessionName } from '../../src/mcp/call-info.js';
import { clientRoots } from '../../src/mcp/client-roots.js';
import { SESSION_LIMITS, type SessionLimits } from '../../src/mcp/http/session-limits.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { silent } from '../mcp/harness.js';
import { agentSession, callOf, ok } from '../storymap/session.js';
import {
  httpClient,
  initializeBody,
  issueToken,
  JSON_HEADERS,
  post,
  withServer,
} from '../mcp/http-harness.js';

const VERSION = '2025-11-25';
const alice = { kind: 'actor' as const, actor_id: 'alice' };
const bob = { kind: 'actor' as const, actor_id: 'bob' };

const bearer = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/** `initialize` with or without a token: the session id, or the refusal. */
const initialize = async (url: string, token?: string) => {
  const res = await post(url, initializeBody(VERSION), bearer(token));
  return { status: res.status, id: res.headers.get('mcp-session-id'), res };
};

/** One request on a session: its status and, for a tool call, who it ran as. */
const onSession = async (
  url: string,
  session: string,
  method: 'POST' | 'GET' | 'DELETE',
  token?: string,
  body: unknown = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'whoami', arguments: {} },
  },
) => {
  const headers = {
    ...JSON_HEADERS,
    ...bearer(token),
    'mcp-session-id': session,
    'mcp-protocol-version': VERSION,
    ...(method === 'GET' ? { accept: 'text/event-stream' } : {}),
  };
  const res = await fetch(url, {
    method,
    headers,
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
  if (method === 'GET') {
    // an SSE stream that opened stays open: the status is all this test needs
    await res.body?.cancel();
    return { status: res.status, as: undefined };
  }
  const text = await res.text();
  const json = text
    ? (JSON.parse(text) as {
        result?: { structuredContent?: { result?: { principal?: unknown } } };
      })
    : {};
  return { status: res.status, as: json.result?.structuredContent?.result?.principal };
};

const tokens = async (app: App) => ({
  alice: await issueToken(app, alice),
  bob: await issueToken(app, bob),
  system: await issueToken(app, SYSTEM),
});

const limits = (over: Partial<SessionLimits>): SessionLimits => ({ ...SESSION_LIMITS, ...over });

describe('a stateful session belongs to the principal that opened it (issue 40)', () => {
  it("every request on alice's session carries alice's token: none is 401, bob's or SYSTEM's is 404", () =>
    withServer({ stateful: true }, async ({ app, url }) => {
      const t = await tokens(app);
      const { status, id } = await initialize(url, t.alice);
      assert.equal(status, 200);
      assert.ok(id);
      assert.deepEqual(await onSession(url, id, 'POST', t.alice), { status: 200, as: alice });

      // POST, GET and DELETE without a token
      for (const method of ['POST', 'GET', 'DELETE'] as const)
        assert.equal((await onSession(url, id, method)).status, 401, `${method} without a token`);
      // bob's and SYSTEM's tokens, valid ones, on alice's session id
      for (const [who, token] of [
        ['bob', t.bob],
        ['SYSTEM', t.system],
      ] as const)
        for (const method of ['POST', 'GET', 'DELETE'] as const)
          assert.equal((await onSession(url, id, method, token)).status, 404, `${who} ${method}`);
      // a token that is no token
      assert.equal((await onSession(url, id, 'DELETE', 'il_forged')).status, 401);

      // Then alice's session is still hers and whole; she alone ends it
      assert.deepEqual(await onSession(url, id, 'POST', t.alice), { status: 200, as: alice });
      assert.equal((await onSession(url, id, 'GET', t.alice)).status, 200);
      assert.equal((await onSession(url, id, 'DELETE', t.alice)).status, 200);
      assert.equal((await onSession(url, id, 'POST', t.alice)).status, 404);
    }));

  it('a session opened without credentials is bound to the first principal that calls with a token, and refuses the others', () =>
    withServer({ stateful: true }, async ({ app, url }) => {
      const t = await tokens(app);
      const { id } = await initialize(url);
      assert.ok(id);
      const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
      // discovery needs no token; an SSE stream does
      assert.equal((await onSession(url, id, 'POST', undefined, list)).status, 200);
      assert.equal((await onSession(url, id, 'GET')).status, 401);
      // When alice calls with her token, the session becomes hers
      assert.deepEqual(await onSession(url, id, 'POST', t.alice), { status: 200, as: alice });
      assert.equal((await onSession(url, id, 'POST', t.bob)).status, 404);
      assert.equal((await onSession(url, id, 'POST', undefined, list)).status, 401);
      assert.equal((await onSession(url, id, 'DELETE')).status, 401);
    }));

  it('a session opened without credentials and never bound ends within seconds', () =>
    withServer(
      { stateful: true, sessionLimits: limits({ anonymousMs: 150 }) },
      async ({ app, url }) => {
        const t = await tokens(app);
        const idle = (await initialize(url)).id!;
        const bound = (await initialize(url)).id!;
        assert.equal((await onSession(url, bound, 'POST', t.alice)).status, 200);
        await delay(400);
        assert.equal((await onSession(url, idle, 'POST', t.alice)).status, 404, 'expired');
        assert.equal((await onSession(url, bound, 'POST', t.alice)).status, 200, 'bound: kept');
      },
    ));
});

describe('sessions are bounded, per principal and in total (issue 40)', () => {
  it('past the total or the anonymous count, initialize is 503 at once with Retry-After; nothing is opened', () =>
    withServer(
      { stateful: true, sessionLimits: limits({ total: 4, anonymous: 2 }) },
      async ({ app, url }) => {
        const t = await tokens(app);
        assert.equal((await initialize(url)).status, 200);
        assert.equal((await initialize(url)).status, 200);
        const anonymous = await initialize(url);
        assert.equal(anonymous.status, 503);
        assert.equal(anonymous.res.headers.get('retry-after'), '10');
        assert.equal(anonymous.id, null);
        // alice still gets hers, up to the total
        assert.equal((await initialize(url, t.alice)).status, 200);
        assert.equal((await initialize(url, t.bob)).status, 200);
        const full = await initialize(url, t.system);
        assert.equal(full.status, 503);
        assert.match(
          ((await full.res.json()) as { error: { message: string } }).error.message,
          /too many sessions/,
        );
      },
    ));

  it("past a principal's own count, its least recently used session is closed; another principal's are not touched", () =>
    withServer(
      { stateful: true, sessionLimits: limits({ perPrincipal: 2 }) },
      async ({ app, url }) => {
        const t = await tokens(app);
        const bobs = (await initialize(url, t.bob)).id!;
        const first = (await initialize(url, t.alice)).id!;
        const second = (await initialize(url, t.alice)).id!;
        await delay(5);
        assert.equal((await onSession(url, first, 'POST', t.alice)).status, 200); // first is now the fresher
        const third = (await initialize(url, t.alice)).id!;
        assert.equal(
          (await onSession(url, second, 'POST', t.alice)).status,
          404,
          'the least recently used went',
        );
        assert.equal((await onSession(url, first, 'POST', t.alice)).status, 200);
        assert.equal((await onSession(url, third, 'POST', t.alice)).status, 200);
        assert.deepEqual(await onSession(url, bobs, 'POST', t.bob), { status: 200, as: bob });
      },
    ));
});

describe('no transport session id is stored or shown (issue 40)', () => {
  it('a story claim names its session by a hash: get_story and the log never hold the Mcp-Session-Id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-sessions-'));
    const app = await openIntentlog({ dataDir: dir, store: 'memory' });
    const served = await serveOverHttp({
      app,
      selection: resolveSurfaces(surfacesOf(modules), 'storymap'),
      log: silent,
      host: '127.0.0.1',
      port: 0,
      stateful: true,
    });
    try {
      const { client, transport } = await httpClient(served.url, {
        token: await issueToken(app, alice),
      });
      const transportId = transport.sessionId!;
      assert.ok(transportId);
      const call = callOf(client);
      const { project_id } = await agentSession(call);
      const started = await ok(call, 'start_story', { project_id, story_id: 'PB-1' });
      const story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      const shown = JSON.stringify([started, story]);
      assert.ok(!shown.includes(transportId), 'the answers show the transport id');
      assert.ok(
        shown.includes(sessionName(transportId)),
        'the claim names the session by its hash',
      );
      const stored = JSON.stringify(
        await app.log.readAll({ after: 0, limit: await app.log.head() }),
      );
      assert.ok(!stored.includes(transportId), 'the log holds the transport id');
      assert.ok(stored.includes(sessionName(transportId)));
      await client.close();
    } finally {
      await served.close();
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('over stateless HTTP a tool is told at once that there are no roots to ask for: roots/list is never sent', async () => {
    let sent = 0;
    const request = {
      sessionId: undefined,
      mcpReq: {
        _meta: undefined,
        send: () => {
          sent++;
          return new Promise(() => undefined); // a stateless client never answers
        },
      },
    } as unknown as ServerContext;
    assert.deepEqual(await clientRoots(callInfo(request, 'http'), 60_000), []);
    assert.equal(sent, 0);
    // a session (stateful HTTP) is asked, and named by a hash of its id
    const stateful = callInfo({ ...request, sessionId: 'transport-id' } as ServerContext, 'http');
    assert.equal(stateful.sessionId, sessionName('transport-id'));
    void stateful.listRoots();
    assert.equal(sent, 1);
  });
});
