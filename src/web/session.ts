import { timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../events/index.js';
import { SESSION_TTL_MS } from './project/sign-in.js';

/**
 * The session cookie. HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/ . It is read only by the web view's routes: the MCP endpoint reads bearer tokens
 * and nothing else, and the web view never reads an Authorization header.
 */
export const SESSION_COOKIE = 'intentlog_session';

export const sessionCookie = (secret: string): string =>
  `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_MS / 1000}`;

export const clearedCookie = (): string =>
  `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

/** The session secret a request's Cookie header carries, if any. */
export const cookieSecret = (request: Request): string | undefined => {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
};

/**
 * The CSRF token of a session: derived from its secret, so it needs no storage, and a page of
 * another origin (which cannot read ours) cannot know it.
 */
export const csrfToken = (sessionSecret: string): string => sha256Hex(`csrf\n${sessionSecret}`);

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A write is accepted only from a page of this very origin carrying the session's CSRF token
 * (form field `csrf` or header `X-CSRF-Token`). A missing Origin is refused: browsers send it
 * on every POST, and a request without one is not from our pages.
 */
export const writeRefusal = (
  request: Request,
  sessionSecret: string,
  sentToken: string | null,
): string | undefined => {
  const origin = request.headers.get('origin');
  if (origin !== new URL(request.url).origin) return 'this request does not come from this page';
  if (!sentToken || !same(sentToken, csrfToken(sessionSecret)))
    return 'the form is stale or forged (CSRF token); reload the page';
  return undefined;
};
