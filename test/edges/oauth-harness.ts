import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client,
  StreamableHTTPClientTransport,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { webConsentSession } from '../../src/cli/commands/serve.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { signIn } from '../../src/web/project/sign-in.js';
import { silent } from '../mcp/harness.js';

export type Provider = OAuthClientProvider & { authUrl?: URL; saved?: Record<string, unknown> };

/** An MCP host's side of the flow, in memory: what Claude Code or Codex keep on disk. */
export const memoryProvider = (): Provider => {
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

export type Clock = { now: number };

export const serving = async (
  body: (ctx: { app: App; url: string; clock: Clock }) => Promise<void>,
) => {
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
export const signedIn = async (app: App, actor?: string) => {
  const principal = actor ? { kind: 'actor' as const, actor_id: actor } : undefined;
  const { code } = await signIn(app).issueCode(principal);
  return `intentlog_session=${await signIn(app).redeem(code)}`;
};

export const hiddenFields = (html: string): URLSearchParams =>
  new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      ([, k, v]): [string, string] => [
        k!,
        v!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
      ],
    ),
  );

/** The person opens the consent page and answers; returns the redirect's query. */
export const consent = async (
  authUrl: URL,
  cookie: string,
  actor: string,
  decision = 'approve',
) => {
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

export const connect = async (url: string, provider: Provider) => {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
};

export const whoami = async (client: Client) => {
  const answer = await client.callTool({ name: 'whoami', arguments: {} });
  return (answer.structuredContent as { result: { principal: unknown } }).result.principal;
};

export const types = async (app: App) =>
  (await app.log.readAll({ after: 0, limit: 10_000 }))
    .map((e) => e.type)
    .filter((t) => t.startsWith('oauth.'));
