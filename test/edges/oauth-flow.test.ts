import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { governance } from '../../src/app/governance/index.js';
import {
  connect,
  consent,
  hiddenFields,
  memoryProvider,
  serving,
  signedIn,
  types,
  whoami,
} from './oauth-harness.js';

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
