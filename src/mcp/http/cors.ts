/**
 * CORS for what an MCP client running in a browser page calls (the MCP Inspector's web UI, a
 * web IDE): the MCP endpoints, the OAuth discovery documents, registration, token and
 * revocation. The consent page is navigated to, not fetched, and the web view is same-origin:
 * neither needs it. Allowed origins are loopback pages (any port) and those named with
 * `serve --cors-origin`; credentials are bearer tokens in a header, never cookies, so no
 * `Access-Control-Allow-Credentials` (docs/decisions.md, "CORS").
 */

const CORS_PATHS = [
  /^\/mcp(\/|$)/,
  /^\/\.well-known\/oauth-/,
  /^\/oauth\/(register|token|revoke)$/,
];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What a page may send (beyond the CORS-safelisted): the bearer token and MCP's own headers. */
const ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
/** What a page may read: the session id to send back, the version, and the 401's challenge. */
const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

export type CorsPolicy = {
  /** the origin a response may name in Access-Control-Allow-Origin, or undefined for none */
  allowedOrigin(request: Request): string | undefined;
  /** the answer to a preflight (OPTIONS) of a CORS path, or undefined when it is none */
  preflight(request: Request): Response | undefined;
  /** the response with the CORS headers its request earns (the same response when none) */
  decorate(request: Request, response: Response): Response;
};

const isLoopbackOrigin = (origin: string): boolean => {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
};

export const corsPolicy = (extraOrigins: readonly string[] = []): CorsPolicy => {
  const named = new Set(extraOrigins.map((o) => o.replace(/\/$/, '')));
  const allowedOrigin = (request: Request): string | undefined => {
    const origin = request.headers.get('origin');
    if (!origin || !CORS_PATHS.some((p) => p.test(new URL(request.url).pathname))) return undefined;
    return isLoopbackOrigin(origin) || named.has(origin) ? origin : undefined;
  };
  return {
    allowedOrigin,
    preflight(request) {
      if (request.method !== 'OPTIONS') return undefined;
      if (!CORS_PATHS.some((p) => p.test(new URL(request.url).pathname))) return undefined;
      const origin = allowedOrigin(request);
      // a refused origin gets no CORS headers: the browser then stops the request itself
      if (!origin) return new Response(null, { status: 204, headers: { vary: 'Origin' } });
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': '600',
          vary: 'Origin',
        },
      });
    },
    decorate(request, response) {
      const origin = allowedOrigin(request);
      if (!origin) return response;
      const headers = new Headers(response.headers);
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-expose-headers', EXPOSE_HEADERS);
      headers.append('vary', 'Origin');
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    },
  };
};
