import { timingSafeEqual } from 'node:crypto';
import type { App } from '../../app/app.js';
import { oauth } from '../../app/project/oauth.js';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import type { HttpRoute } from '../http/handler.js';
import { MCP_PATH } from '../http/handler.js';
import { AUTHORIZE_PATH, issuerOf } from './metadata.js';
import { knownActors } from './actors.js';
import { consentPage, messagePage, type AuthorizeRequest } from './consent-page.js';

/**
 * Who is at the browser: the web view's session (its sign-in: `intentlog open`), with the CSRF
 * token its forms carry. Handed in by `serve`, so this layer does not reach into the web view.
 */
export type ConsentSession = (
  request: Request,
) => Promise<{ principal: Principal; csrf: string } | undefined>;

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const redirect = (to: string, params: Record<string, string | undefined>): Response => {
  const url = new URL(to);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return new Response(null, {
    status: 302,
    headers: { location: url.href, 'cache-control': 'no-store' },
  });
};

type Checked = { ok: AuthorizeRequest } | { page: Response } | { redirect: Response };

/**
 * RFC 6749 §4.1.2.1: a bad client or redirect URI is shown to the person (never redirected to);
 * every other problem goes back to the client's redirect URI with an error.
 */
const check = async (app: App, request: Request, params: URLSearchParams): Promise<Checked> => {
  const get = (name: string) => params.get(name) ?? undefined;
  const clientId = get('client_id') ?? '';
  const client = clientId ? await oauth(app).client(clientId) : undefined;
  if (!client)
    return {
      page: messagePage(400, 'Unknown client', 'This client is not registered with intentlog.'),
    };
  const redirectUri =
    get('redirect_uri') ??
    (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri || !client.redirect_uris.includes(redirectUri))
    return {
      page: messagePage(400, 'Unknown redirect', 'redirect_uri is not one the client registered.'),
    };
  const state = get('state');
  const iss = issuerOf(request);
  const fail = (error: string, error_description: string): Checked => ({
    redirect: redirect(redirectUri, { error, error_description, state, iss }),
  });
  if (get('response_type') !== 'code')
    return fail('unsupported_response_type', 'response_type=code only');
  const challenge = get('code_challenge');
  if (
    !challenge ||
    !/^[A-Za-z0-9_-]{43}$/.test(challenge) ||
    get('code_challenge_method') !== 'S256'
  )
    return fail(
      'invalid_request',
      'PKCE is required: code_challenge with code_challenge_method=S256',
    );
  const resource = get('resource') ?? null;
  if (resource !== null) {
    const url = URL.canParse(resource) ? new URL(resource) : undefined;
    const ours =
      url &&
      url.origin === iss &&
      (url.pathname === MCP_PATH || url.pathname.startsWith(`${MCP_PATH}/`));
    if (!ours)
      return fail('invalid_target', `this server issues tokens for ${iss}${MCP_PATH} only`);
  }
  return {
    ok: {
      client_id: clientId,
      client_name: client.client_name,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      state,
      resource,
      scope: get('scope'),
    },
  };
};

/** Whom the signed-in person may let the client act as: SYSTEM anyone, an actor itself. */
const choices = async (app: App, by: Principal): Promise<string[]> =>
  by.kind === 'actor' ? [by.actor_id] : ['system', ...(await knownActors(app))];

const asPrincipal = (choice: string): Principal =>
  choice === 'system' ? SYSTEM : { kind: 'actor', actor_id: choice };

/**
 * `GET /oauth/authorize`: the consent page, on the same port, for the person signed in to the web
 * view; `POST /oauth/authorize`: their answer. Approving picks the actor the client acts as and
 * redirects with a one-time code (and RFC 9207's `iss`).
 */
export const consentRoute =
  (app: App, sessionOf: ConsentSession): HttpRoute =>
  async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== AUTHORIZE_PATH) return undefined;
    if (request.method !== 'GET' && request.method !== 'POST') return undefined;
    const params =
      request.method === 'GET' ? url.searchParams : new URLSearchParams(await request.text());
    const checked = await check(app, request, params);
    if ('page' in checked) return checked.page;
    if ('redirect' in checked) return checked.redirect;
    const authz = checked.ok;
    const session = await sessionOf(request);
    if (!session)
      return messagePage(
        401,
        'Sign in to intentlog first',
        'Run `intentlog open` on this machine, open the link it prints in this browser, then reload this page.',
      );
    const allowed = await choices(app, session.principal);
    if (request.method === 'GET') return consentPage(authz, allowed, session.csrf);
    // the answer: from our own page (Origin), with the session's CSRF token
    const sentCsrf = params.get('csrf') ?? '';
    if (request.headers.get('origin') !== url.origin || !same(sentCsrf, session.csrf))
      return messagePage(
        403,
        'Refused',
        'This answer did not come from the consent page; reload it.',
      );
    const back = { state: authz.state, iss: issuerOf(request) };
    if (params.get('decision') !== 'approve')
      return redirect(authz.redirect_uri, {
        error: 'access_denied',
        error_description: 'the person declined',
        ...back,
      });
    const actor = params.get('actor') ?? '';
    if (!allowed.includes(actor))
      return consentPage(authz, allowed, session.csrf, `You cannot act as ${actor || '(none)'}.`);
    const code = await oauth(app).approve({
      client_id: authz.client_id,
      redirect_uri: authz.redirect_uri,
      code_challenge: authz.code_challenge,
      resource: authz.resource,
      principal: asPrincipal(actor),
      by: session.principal,
    });
    return redirect(authz.redirect_uri, { code, ...back });
  };
