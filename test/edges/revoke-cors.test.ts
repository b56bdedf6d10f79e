import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { oauth, s256 } from '../../src/app/project/oauth.js';
import { webConsentSession } from '../../src/cli/commands/serve.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { silent } from '../mcp/harness.js';

const serving = async (
  body: (ctx: { app: App; url: string }) => Promise<void>,
  corsOrigins?: string[],
) => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-revoke-'));
  const app = await openIntentlog({ dataDir: dir, store: 'memory' });
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(surfacesOf(modules), 'system'),
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: false,
    requireAuthAll: true,
    consent: webConsentSession(app),
    ...(corsOrigins ? { corsOrigins } : {}),
  });
  try {
    await body({ app, url: listening.url });
  } finally {
    await listening.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
};

const redirect_uri = 'http://127.0.0.1:1/callback';

/** A registered client and the tokens a person's consent gave it (the flow oauth-flow tests). */
const signedInClient = async (app: App, url: string) => {
  const registered = await fetch(new URL('/oauth/register', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirect_uri], client_name: 'a host' }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const code = await oauth(app).approve({
    client_id,
    redirect_uri,
    code_challenge: s256(verifier),
    resource: null,
    principal: SYSTEM,
    by: SYSTEM,
  });
  const answer = await fetch(new URL('/oauth/token', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri,
      code_verifier: verifier,
      client_id,
    }),
  });
  assert.equal(answer.status, 200);
  const tokens = (await answer.json()) as { access_token: string; refresh_token: string };
  return { client_id, ...tokens };
};

const revoke = (url: string, fields: Record<string, string>) =>
  fetch(new URL('/oauth/revoke', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

/** tools/list with the token: 200 while it is good, 401 once it is not. */
const listWith = async (url: string, token: string, origin?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-11-25',
      ...(origin ? { origin } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

const refreshWith = (url: string, client_id: string, refresh_token: string) =>
  fetch(new URL('/oauth/token', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token, client_id }),
  });

describe('/oauth/revoke (RFC 7009)', () => {
  it('revokes an access token by an event: its next call is a 401, the grant refreshes on', () =>
    serving(async ({ app, url }) => {
      const c = await signedInClient(app, url);
      assert.equal((await listWith(url, c.access_token)).status, 200);
      const other = await signedInClient(app, url);
      const refused = await revoke(url, { token: c.access_token, client_id: other.client_id });
      assert.equal(refused.status, 400, 'a token is revoked only by the client it was issued to');
      assert.equal((await listWith(url, c.access_token)).status, 200);

      const done = await revoke(url, {
        token: c.access_token,
        token_type_hint: 'access_token',
        client_id: c.client_id,
      });
      assert.equal(done.status, 200);
      assert.equal(done.headers.get('cache-control'), 'no-store');
      const after = await listWith(url, c.access_token);
      assert.equal(after.status, 401);
      assert.match(after.headers.get('www-authenticate') ?? '', /invalid_token/);
      const revoked = (await app.log.readAll({ after: 0, limit: 1000 })).filter(
        (e) => e.type === 'token.revoked',
      );
      assert.equal(revoked.length, 1, 'one token.revoked event');
      // twice is still 200 and appends nothing
      assert.equal(
        (await revoke(url, { token: c.access_token, client_id: c.client_id })).status,
        200,
      );
      const again = (await app.log.readAll({ after: 0, limit: 1000 })).filter(
        (e) => e.type === 'token.revoked',
      );
      assert.equal(again.length, 1);
      // the refresh token was not revoked with it: a new access token works
      const renewed = await refreshWith(url, c.client_id, c.refresh_token);
      assert.equal(renewed.status, 200);
      const { access_token } = (await renewed.json()) as { access_token: string };
      assert.equal((await listWith(url, access_token)).status, 200);
    }));

  it('revokes a refresh token with its grant and every token the grant issued', () =>
    serving(async ({ app, url }) => {
      const c = await signedInClient(app, url);
      const done = await revoke(url, { token: c.refresh_token, client_id: c.client_id });
      assert.equal(done.status, 200);
      assert.equal((await listWith(url, c.access_token)).status, 401);
      assert.equal((await refreshWith(url, c.client_id, c.refresh_token)).status, 400);
    }));

  it('answers 200 for unknown tokens and static tokens, refuses unknown or missing clients', () =>
    serving(async ({ app, url }) => {
      const c = await signedInClient(app, url);
      const unknown = await revoke(url, { token: 'no-such-token', client_id: c.client_id });
      assert.equal(unknown.status, 200);
      const garbled = await revoke(url, { token: 'ilrefresh_nope.x', client_id: c.client_id });
      assert.equal(garbled.status, 200);
      // a token `intentlog token create` issued belongs to no client: only the CLI revokes it
      const issued = await app.tokens.issue(SYSTEM, 'script', SYSTEM);
      await app.waitFor(issued.position);
      assert.equal(
        (await revoke(url, { token: issued.token, client_id: c.client_id })).status,
        200,
      );
      assert.equal((await listWith(url, issued.token)).status, 200);

      const noClient = await revoke(url, { token: c.access_token });
      assert.equal(noClient.status, 401);
      assert.equal(((await noClient.json()) as { error: string }).error, 'invalid_client');
      const wrong = await revoke(url, { token: c.access_token, client_id: 'client_nope' });
      assert.equal(wrong.status, 401);
      const noToken = await revoke(url, { client_id: c.client_id });
      assert.equal(noToken.status, 400);
      assert.equal((await listWith(url, c.access_token)).status, 200, 'nothing was revoked');
    }));
});

const preflight = (url: string, path: string, origin: string) =>
  fetch(new URL(path, url), {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
    },
  });

describe('CORS for MCP clients in a browser page', () => {
  it('answers the preflight and exposes the session id and the challenge to loopback pages', () =>
    serving(async ({ app, url }) => {
      const page = 'http://localhost:6274';
      for (const path of [
        '/mcp',
        '/mcp/system',
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-authorization-server',
        '/oauth/register',
        '/oauth/token',
        '/oauth/revoke',
      ]) {
        const answer = await preflight(url, path, page);
        assert.equal(answer.status, 204, path);
        assert.equal(answer.headers.get('access-control-allow-origin'), page, path);
        const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase();
        for (const h of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version'])
          assert.ok(allowed.includes(h), `${path} allows ${h}`);
        assert.match(answer.headers.get('access-control-allow-methods') ?? '', /POST/);
      }
      // the 401 a page gets without a token: readable, with its WWW-Authenticate exposed
      const denied = await fetch(url, {
        method: 'POST',
        headers: {
          origin: page,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(denied.status, 401);
      assert.equal(denied.headers.get('access-control-allow-origin'), page);
      const exposed = (denied.headers.get('access-control-expose-headers') ?? '').toLowerCase();
      for (const h of ['www-authenticate', 'mcp-session-id', 'mcp-protocol-version'])
        assert.ok(exposed.includes(h), h);
      assert.ok(denied.headers.get('www-authenticate'));
      const metadata = await fetch(new URL('/.well-known/oauth-authorization-server', url), {
        headers: { origin: 'http://127.0.0.1:5173' },
      });
      assert.equal(metadata.headers.get('access-control-allow-origin'), 'http://127.0.0.1:5173');
      const c = await signedInClient(app, url);
      const listed = await listWith(url, c.access_token, page);
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get('access-control-allow-origin'), page);
    }));

  it('gives other origins no CORS headers, and the web view none at all', () =>
    serving(async ({ url }) => {
      const far = await preflight(url, '/mcp', 'https://evil.example');
      assert.equal(far.headers.get('access-control-allow-origin'), null);
      const web = await fetch(new URL('/healthz', url), {
        headers: { origin: 'http://localhost:6274' },
      });
      assert.equal(web.headers.get('access-control-allow-origin'), null);
    }));

  it('serve --cors-origin names a further origin', () =>
    serving(
      async ({ url }) => {
        const named = await preflight(url, '/mcp', 'https://ide.example');
        assert.equal(named.status, 204);
        assert.equal(named.headers.get('access-control-allow-origin'), 'https://ide.example');
      },
      ['https://ide.example'],
    ));
});
