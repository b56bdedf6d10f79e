import { z } from 'zod';
import type { App } from '../../app/app.js';
import { oauth } from '../../app/project/oauth.js';
import { isDomainError } from '../../commands/errors.js';
import type { HttpRoute } from '../http/handler.js';
import { peerOf } from '../http/peer.js';
import { registrationLimiter } from './register-limit.js';
import { oauthError, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './metadata.js';

const MAX_BODY = 64 * 1024;
const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Redirect URIs a public client may register (OAuth 2.1 §2.3.1, RFC 8252): https anywhere, http
 * only on a loopback address (a CLI's local listener), or an app's private scheme (`cursor:`);
 * never a fragment.
 */
export const redirectUriProblem = (value: string): string | undefined => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `not an absolute URI: ${value}`;
  }
  if (url.hash) return `a redirect URI has no fragment: ${value}`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return LOOPBACK.has(url.hostname) ? undefined : `http is for loopback only: ${value}`;
  if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol))
    return `not a redirect scheme: ${url.protocol}`;
  return undefined;
};

/** RFC 7591 §2 — the fields this server reads; others are accepted and ignored. */
const Registration = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(20),
  client_name: z.string().max(200).optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

const GRANTS = new Set(['authorization_code', 'refresh_token']);

const readJson = async (request: Request): Promise<unknown> => {
  const text = await request.text();
  if (text.length > MAX_BODY) throw new TypeError('the body is too large');
  return JSON.parse(text);
};

/**
 * `POST /oauth/register` (RFC 7591). Open registration, as MCP hosts expect: a client learns
 * nothing by registering; only a person's consent gives it a token. Every client is public
 * (`none`): PKCE, not a secret, binds the code to the client (RFC 7591 §3.2.1 lets the server
 * replace a requested method).
 */
const register = async (
  app: App,
  request: Request,
  limit: ReturnType<typeof registrationLimiter>,
): Promise<Response> => {
  const wait = limit(peerOf(request));
  if (wait !== undefined) {
    const refused = oauthError(
      429,
      'temporarily_unavailable',
      `too many client registrations from this address; retry in ${wait} s`,
    );
    refused.headers.set('retry-after', String(wait));
    return refused;
  }
  let body: unknown;
  try {
    body = await readJson(request);
  } catch {
    return oauthError(400, 'invalid_client_metadata', 'the body is not a JSON object');
  }
  const parsed = Registration.safeParse(body);
  if (!parsed.success)
    return oauthError(400, 'invalid_client_metadata', parsed.error.issues[0]!.message);
  const meta = parsed.data;
  const problem = meta.redirect_uris.map(redirectUriProblem).find(Boolean);
  if (problem) return oauthError(400, 'invalid_redirect_uri', problem);
  const grants = meta.grant_types ?? ['authorization_code'];
  if (grants.some((g) => !GRANTS.has(g)))
    return oauthError(
      400,
      'invalid_client_metadata',
      'grant_types: authorization_code, refresh_token',
    );
  if ((meta.response_types ?? ['code']).some((r) => r !== 'code'))
    return oauthError(400, 'invalid_client_metadata', 'response_types: code only');
  const client_name = meta.client_name ?? null;
  const { client_id, issued_at } = await oauth(app).registerClient({
    client_name,
    redirect_uris: meta.redirect_uris,
  });
  return Response.json(
    {
      client_id,
      client_id_issued_at: issued_at,
      ...(client_name ? { client_name } : {}),
      redirect_uris: meta.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    { status: 201, headers: noStore },
  );
};

const form = async (request: Request): Promise<URLSearchParams | undefined> => {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  const text = await request.text();
  return text.length > MAX_BODY ? undefined : new URLSearchParams(text);
};

/** The RFC's answer for a refusal the grant decided (`invalid_grant`); anything else is ours. */
const grantRefusal = (error: unknown): Response => {
  if (isDomainError(error) && error.code === 'invalid_grant')
    return oauthError(400, 'invalid_grant', error.message);
  throw error;
};

/** `POST /oauth/token` (RFC 6749 §4.1.3 and §6, public clients): the two grants. */
const token = async (app: App, request: Request): Promise<Response> => {
  const params = await form(request);
  if (!params) return oauthError(400, 'invalid_request', 'send application/x-www-form-urlencoded');
  const get = (name: string) => params.get(name) ?? '';
  const client_id = get('client_id');
  if (!client_id) return oauthError(401, 'invalid_client', 'client_id is required');
  if (!(await oauth(app).client(client_id)))
    return oauthError(401, 'invalid_client', 'unknown client_id');
  const grant = get('grant_type');
  try {
    if (grant === 'authorization_code') {
      const [code, redirect_uri, code_verifier] = [
        get('code'),
        get('redirect_uri'),
        get('code_verifier'),
      ];
      if (!code || !redirect_uri)
        return oauthError(400, 'invalid_request', 'code and redirect_uri are required');
      // RFC 7636 §4.1: 43–128 unreserved characters
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(code_verifier))
        return oauthError(400, 'invalid_request', 'code_verifier: 43–128 unreserved characters');
      const tokens = await oauth(app).exchangeCode({
        code,
        client_id,
        redirect_uri,
        code_verifier,
      });
      return Response.json(tokens, { headers: noStore });
    }
    if (grant === 'refresh_token') {
      const refresh_token = get('refresh_token');
      if (!refresh_token) return oauthError(400, 'invalid_request', 'refresh_token is required');
      const tokens = await oauth(app).refresh({ refresh_token, client_id });
      return Response.json(tokens, { headers: noStore });
    }
  } catch (error) {
    return grantRefusal(error);
  }
  return oauthError(400, 'unsupported_grant_type', 'authorization_code or refresh_token');
};

/**
 * `POST /oauth/revoke` (RFC 7009), access and refresh tokens alike: 200 whether or not the token
 * was known (§2.2). Clients are public, so the client authenticates as registered: by its
 * `client_id`, which must be the one the token was issued to.
 */
const revoke = async (app: App, request: Request): Promise<Response> => {
  const params = await form(request);
  if (!params) return oauthError(400, 'invalid_request', 'send application/x-www-form-urlencoded');
  const value = params.get('token');
  if (!value) return oauthError(400, 'invalid_request', 'token is required');
  const client_id = params.get('client_id') ?? '';
  if (!client_id) return oauthError(401, 'invalid_client', 'client_id is required');
  if (!(await oauth(app).client(client_id)))
    return oauthError(401, 'invalid_client', 'unknown client_id');
  if ((await oauth(app).revokeToken(value, client_id)) === 'other_client')
    return oauthError(400, 'invalid_request', 'this token was issued to another client');
  return new Response(null, { status: 200, headers: noStore });
};

/** The authorization server's POST endpoints (the consent page is consent.ts). */
export const oauthEndpointsRoute = (app: App): HttpRoute => {
  const limit = registrationLimiter();
  return async (request) => {
    if (request.method !== 'POST') return undefined;
    switch (new URL(request.url).pathname) {
      case REGISTER_PATH:
        return register(app, request, limit);
      case TOKEN_PATH:
        return token(app, request);
      case REVOKE_PATH:
        return revoke(app, request);
      default:
        return undefined;
    }
  };
};
