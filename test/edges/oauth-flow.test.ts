import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  Client,
  StreamableHTTPClientTransport,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { governance } from '../../src/app/governance/index.js';
import { webConsentSession } from '../../src/cli/commands/serve.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { signIn } from '../../src/web/project/sign-in.js';
import { silent } from '../mcp/harness.js';

type Provider = OAuthClientProvider & { authUrl?: URL; saved?: Record<string, unknown> };

/** An MCP host's side of the flow, in memory: what Claude Code or Codex keep on disk. */
const memoryProvider = (): Provider => {
  const store: Record<string, unknown> = {};
  const redirectUrl = 'http://127.0.0.1:1/callback';
  const provider: Provider = {
    redirectUrl,
    clientMetadata: {
      client_name: 'test host',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => store.client as never,
    saveClientInformation: (info) => void (store.client = info),
    tokens: () => store.tokens as never,
    saveTokens: (tokens) => void (store.tokens = tokens),
    redirectToAuthorization: (url) => void (provider.authUrl = url),
    saveCodeVerifier: (v) => void (store.verifier = v),
    codeVerifier: () => store.verifier as string,
    discoveryState: () => store.discovery as never,
    saveDiscoveryState: (state) => void (store.discovery = state),
    saved: store,
  };
  return provider;
};

type Clock = { now: number };

const serving = async (body: (ctx: { app: App; url: string; clock: Clock }) => Promise<void>) => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-oauth-'));
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const app = await openIntentlog({
    dataDir: dir,
    store: 'memory',
    clock: () => new Date(clock.now),
  });
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(surfacesOf(modules), 'system'),
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: false,
    requireAuthAll: true,
    consent: webConsentSession(app),
  });
  try {
    await body({ app, url: listening.url, clock });
  } finally {
    await listening.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
};

/** A person signed in to the web view (as `intentlog open` does): the session cookie. */
const signedIn = async (app: App, actor?: string) => {
  const principal = actor ? { kind: 'actor' as const, actor_id: actor } : undefined;
  const { code } = await signIn(app).issueCode(principal);
  return `intentlog_session=${await signIn(app).redeem(code)}`;
};

const hiddenFields = (html: string): URLSearchParams =>
  new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      ([, k, v]): [string, string] => [
        k!,
        v!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
      ],
    ),
  );

/** The person opens the consent page and answers; returns the redirect's query. */
const consent = async (authUrl: URL, cookie: string, actor: string, decision = 'approve') => {
  const page = await fetch(authUrl, { headers: { cookie } });
  assert.equal(page.status, 200, await page.clone().text());
  const html = await page.text();
  assert.match(html, /test host/);
  const form = hiddenFields(html);
  form.set('actor', actor);
  form.set('decision', decision);
  const answer = await fetch(new URL(authUrl.pathname, authUrl), {
    method: 'POST',
    headers: {
      cookie,
      origin: authUrl.origin,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form,
    redirect: 'manual',
  });
  assert.equal(answer.status, 302);
  return new URL(answer.headers.get('location')!).searchParams;
};

const connect = async (url: string, provider: Provider) => {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
};

const whoami = async (client: Client) => {
  const answer = await client.callTool({ name: 'whoami', arguments: {} });
  return (answer.structuredContent as { result: { principal: unknown } }).result.principal;
};

const types = async (app: App) =>
  (await app.log.readAll({ after: 0, limit: 10_000 }))
    .map((e) => e.type)
    .filter((t) => t.startsWith('oauth.'));

describe('sign-in: the OAuth authorization server of serve --require-auth', () => {
  it('the SDK client goes discovery → registration → consent with PKCE → token → tool call → refresh', () =>
    serving(async ({ app, url, clock }) => {
      const g = governance(app);
      const sys = { principal: { kind: 'system' as const }, idempotencyKey: '' };
      await g.createProject({ project_id: 'acme', name: 'Acme' }, { ...sys, idempotencyKey: 'p' });
      await g.registerActor(
        { project_id: 'acme', actor_id: 'pat', role: 'PM' },
        { ...sys, idempotencyKey: 'a' },
      );

      const provider = memoryProvider();
      await assert.rejects(connect(url, provider), /Unauthorized/i);
      const authUrl = provider.authUrl!;
      assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authUrl.searchParams.get('resource'), url);

      const back = await consent(authUrl, await signedIn(app), 'pat');
      assert.equal(back.get('state'), authUrl.searchParams.get('state'));
      assert.equal(back.get('iss'), new URL(url).origin);
      const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
      await transport.finishAuth(back);
      const client = await connect(url, provider);
      assert.deepEqual(await whoami(client), { kind: 'actor', actor_id: 'pat' });
      const first = provider.saved!.tokens as { access_token: string; refresh_token: string };

      // an hour later the access token has expired: the client refreshes on the 401 and goes on
      clock.now += 61 * 60_000;
      assert.deepEqual(await whoami(client), { kind: 'actor', actor_id: 'pat' });
      const second = provider.saved!.tokens as { access_token: string; refresh_token: string };
      assert.notEqual(second.refresh_token, first.refresh_token, 'the refresh token rotates');

      // the rotated-away refresh token coming back revokes the whole grant
      const reuse = await fetch(new URL('/oauth/token', url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: first.refresh_token,
          client_id: (provider.saved!.client as { client_id: string }).client_id,
        }),
      });
      assert.equal(reuse.status, 400);
      assert.equal(((await reuse.json()) as { error: string }).error, 'invalid_grant');
      const refused = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${second.access_token}`,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(refused.status, 401);
      await client.close();

      assert.deepEqual(await types(app), [
        'oauth.client_registered',
        'oauth.code_issued',
        'oauth.grant_renewed',
        'oauth.grant_renewed',
        'oauth.grant_revoked',
      ]);
      const listed = await app.tokens.list();
      assert.equal(listed.filter((t) => t.grant_id).length, 2);
      assert.ok(listed.filter((t) => t.grant_id).every((t) => t.revoked_at));
    }));

  it('refuses what the spec refuses: plain PKCE, a wrong verifier, an actor session granting another actor, no session', () =>
    serving(async ({ app, url }) => {
      const origin = new URL(url).origin;
      const meta = (await (
        await fetch(`${origin}/.well-known/oauth-authorization-server`)
      ).json()) as Record<string, unknown>;
      assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
      const registered = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }),
      });
      assert.equal(registered.status, 400, 'http redirect off loopback');

      const provider = memoryProvider();
      await assert.rejects(connect(url, provider), /Unauthorized/i);
      const authUrl = provider.authUrl!;
      const noSession = await fetch(authUrl);
      assert.equal(noSession.status, 401);
      assert.match(await noSession.text(), /intentlog open/);

      const plain = new URL(authUrl);
      plain.searchParams.set('code_challenge_method', 'plain');
      const plainAnswer = await fetch(plain, {
        headers: { cookie: await signedIn(app) },
        redirect: 'manual',
      });
      assert.equal(plainAnswer.status, 302);
      assert.equal(
        new URL(plainAnswer.headers.get('location')!).searchParams.get('error'),
        'invalid_request',
      );

      const asPat = await signedIn(app, 'pat');
      const page = await (await fetch(authUrl, { headers: { cookie: asPat } })).text();
      assert.doesNotMatch(page, /SYSTEM/);
      const form = hiddenFields(page);
      form.set('actor', 'system');
      form.set('decision', 'approve');
      const escalate = await fetch(new URL(authUrl.pathname, authUrl), {
        method: 'POST',
        headers: { cookie: asPat, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        redirect: 'manual',
      });
      assert.equal(escalate.status, 400);

      const back = await consent(authUrl, asPat, 'pat');
      const client_id = (provider.saved!.client as { client_id: string }).client_id;
      const exchange = (verifier: string) =>
        fetch(`${origin}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: back.get('code')!,
            redirect_uri: provider.redirectUrl!.toString(),
            client_id,
            code_verifier: verifier,
          }),
        });
      const wrong = await exchange('x'.repeat(43));
      assert.equal(wrong.status, 400);
      assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_grant');
      const right = await exchange(provider.saved!.verifier as string);
      assert.equal(right.status, 200);
      const again = await exchange(provider.saved!.verifier as string);
      assert.equal(again.status, 400, 'a code works once; its second use revokes the grant');
      assert.ok((await types(app)).includes('oauth.grant_revoked'));
    }));
});
