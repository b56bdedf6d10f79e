import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  REGISTRATION_WINDOW_MS,
  REGISTRATIONS_PER_WINDOW,
  registrationLimiter,
} from '../../src/mcp/oauth/register-limit.js';
import {
  connect,
  consent,
  memoryProvider,
  serving,
  signedIn,
  types,
  whoami,
} from './oauth-harness.js';

const registration = (name: string) => ({
  client_name: name,
  redirect_uris: ['http://127.0.0.1:1/callback'],
  token_endpoint_auth_method: 'none',
});

const register = (url: string, body: unknown) =>
  fetch(new URL('/oauth/register', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('open client registration does not grow the log (issue 28, item 8)', () => {
  it('a registration appends nothing; the first consent for it appends it once, and it works', () =>
    serving(async ({ app, url }) => {
      const before = await app.log.head();
      for (let n = 0; n < 10; n++)
        assert.equal((await register(url, registration(`drive-by ${n}`))).status, 201);
      assert.equal(await app.log.head(), before, 'a registration appended');

      // a host registers, a person consents: the client is in the log from then on
      const provider = memoryProvider();
      await assert.rejects(connect(url, provider), /Unauthorized/i);
      assert.equal(await app.log.head(), before);
      const back = await consent(provider.authUrl!, await signedIn(app), 'system');
      const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
      await transport.finishAuth(back);
      const client = await connect(url, provider);
      assert.deepEqual(await whoami(client), { kind: 'system' });
      await client.close();
      assert.deepEqual((await types(app)).slice(0, 2), [
        'oauth.client_registered',
        'oauth.code_issued',
      ]);
      assert.equal(
        (await types(app)).filter((t) => t === 'oauth.client_registered').length,
        1,
        'only the client a person consented to is in the log',
      );
    }));

  it('the limit is per address, and a window that ends lets the address register again', () => {
    let now = 0;
    const limit = registrationLimiter(() => now);
    for (let n = 0; n < REGISTRATIONS_PER_WINDOW; n++) assert.equal(limit('10.0.0.1'), undefined);
    assert.equal(limit('10.0.0.1'), REGISTRATION_WINDOW_MS / 1000);
    assert.equal(limit('10.0.0.2'), undefined, 'another address is not held back');
    now += REGISTRATION_WINDOW_MS / 2;
    assert.equal(limit('10.0.0.1'), REGISTRATION_WINDOW_MS / 2000);
    now += REGISTRATION_WINDOW_MS / 2;
    assert.equal(limit('10.0.0.1'), undefined);
  });

  it('one address registering too often is told to wait (429, Retry-After)', () =>
    serving(async ({ url }) => {
      for (let n = 0; n < REGISTRATIONS_PER_WINDOW; n++)
        assert.equal((await register(url, registration(`n${n}`))).status, 201);
      const refused = await register(url, registration('one too many'));
      assert.equal(refused.status, 429);
      const wait = Number(refused.headers.get('retry-after'));
      assert.ok(wait >= 1 && wait <= 600, `Retry-After: ${wait}`);
      const body = (await refused.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'temporarily_unavailable');
      assert.match(body.error_description, /retry in \d+ s/);
      // a forged peer header changes nothing: the socket's address counts
      const forged = await fetch(new URL('/oauth/register', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-intentlog-peer': '203.0.113.9' },
        body: JSON.stringify(registration('forged')),
      });
      assert.equal(forged.status, 429);
    }));
});
