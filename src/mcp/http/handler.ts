import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  originValidationResponse,
  readRequestBody,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import {
  authInfoFor,
  bearerToken,
  jsonRpcId,
  needsCredentials,
  unauthorized,
  type Authenticate,
} from './auth.js';
import { resourceMetadataUrl } from '../oauth/resource-metadata.js';
import { corsPolicy, type CorsPolicy } from './cors.js';
import { jsonRpcError } from './responses.js';
import { scanJsonDepth, TOO_DEEP_CODE, TOO_DEEP_MESSAGE } from '../json-depth.js';
import { serverPool } from './pool.js';
import type { SessionLimits } from './session-limits.js';
import { sessionStore } from './sessions.js';

/** One MCP endpoint: the servers it makes (one per request, or per session when stateful). */
export type McpEndpoint = { factory: () => McpServer };

export type McpHttpOptions = {
  /** the endpoint at a path (`/mcp`, `/mcp/<surface>`), undefined when there is none */
  endpointAt: (path: string) => McpEndpoint | undefined;
  authenticate: Authenticate;
  /** the 2025 sessionful binding instead of stateless JSON (`--stateful`) */
  stateful: boolean;
  /** hostnames accepted in Host and Origin (DNS rebinding); undefined: no check */
  allowedHosts: string[] | undefined;
  maxBodyBytes: number;
  log: Logger;
  /**
   * Every request needs credentials, `initialize` and `tools/list` included (`--require-auth`):
   * a host then sees "needs authentication" instead of "connected" without a token. Off by
   * default: governance.md keeps discovery open (docs/decisions.md).
   */
  requireAuthAll?: boolean;
  /**
   * What the same port serves besides MCP (the web view, health, metrics, OAuth metadata):
   * tried in order for any path that is no MCP endpoint; each answers or passes (undefined).
   * Host and Origin are checked for them as for MCP.
   */
  routes?: readonly HttpRoute[];
  /** which browser pages may call (cors.ts); default: loopback pages only */
  cors?: CorsPolicy;
  /** bounds of `stateful` sessions (session-limits.ts); default SESSION_LIMITS */
  sessionLimits?: SessionLimits;
};

/** A handler for paths other than MCP's: a Response, or undefined to pass the request on. */
export type HttpRoute = (request: Request) => Promise<Response | undefined>;

/** The endpoint, as a web-standard handler (`listen.ts` mounts it on node:http). */
export type McpHttpHandler = {
  fetch(request: Request): Promise<Response>;
  /** resolves when no request is in flight */
  idle(): Promise<void>;
  /** refuses new requests (503) from now on and closes sessions; in-flight ones finish */
  close(): Promise<void>;
};

export const MCP_PATH = '/mcp';

const parseBody = async (request: Request, maxBytes: number): Promise<unknown | Response> => {
  const body = await readRequestBody(request, maxBytes);
  if (body.tooLarge)
    return jsonRpcError(413, -32000, `request body over ${maxBytes} bytes`, {
      connection: 'close',
    });
  const depth = scanJsonDepth(body.text);
  if (depth.tooDeep) return jsonRpcError(400, TOO_DEEP_CODE, TOO_DEEP_MESSAGE, {}, depth.id);
  try {
    const parsed: unknown = JSON.parse(body.text);
    if (Array.isArray(parsed))
      return jsonRpcError(400, -32600, 'JSON-RPC batches are not supported');
    return parsed;
  } catch {
    return jsonRpcError(400, -32700, 'Parse error: the body is not JSON');
  }
};

/**
 * Credentials: a token that is sent must be valid (whatever the method); a method that reads or
 * changes the ledger needs one. Returns the AuthInfo to pass on, or the 401 to answer.
 */
const authorize = async (
  request: Request,
  body: unknown,
  authenticate: Authenticate,
  requireAll: boolean,
): Promise<AuthInfo | undefined | Response> => {
  const id = jsonRpcId((body as { id?: unknown } | null)?.id);
  const token = bearerToken(request);
  const where = resourceMetadataUrl(request);
  if (token === undefined)
    return needsCredentials(body, requireAll) ? unauthorized('missing', id, where) : undefined;
  const principal = await authenticate(token);
  return principal ? authInfoFor(token, principal) : unauthorized('invalid', id, where);
};

const methodNotAllowed = (): Response =>
  jsonRpcError(405, -32000, 'Method not allowed: POST JSON-RPC to /mcp', { Allow: 'POST' });

/**
 * POST /mcp: stateless JSON by default (governance.md's transport profile). 2025-era requests
 * (everything a client sends after `initialize`) go to a fresh server per request, or to the
 * session's server with `stateful`; 2026-era requests (per-request `_meta` envelope) go to the
 * SDK's modern handler, which is stateless by design.
 */
export const mcpHttpHandler = (options: McpHttpOptions): McpHttpHandler => {
  const { log } = options;
  const cors = options.cors ?? corsPolicy();
  const routes = new Map<McpEndpoint, ReturnType<typeof endpointRoute>>();
  // one store for every endpoint: its limits are the process's
  const sessions = options.stateful ? sessionStore(options.sessionLimits) : undefined;
  const endpointRoute = (endpoint: McpEndpoint) => ({
    endpoint,
    pool: serverPool(endpoint.factory),
    modern: createMcpHandler(endpoint.factory, {
      legacy: 'reject',
      responseMode: 'auto',
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) => log.debug({ err: error }, 'mcp request refused'),
    }),
  });
  /** Made on first use: a process serving many surfaces pays only for those called. */
  const routeOf = (endpoint: McpEndpoint) => {
    let route = routes.get(endpoint);
    if (!route) routes.set(endpoint, (route = endpointRoute(endpoint)));
    return route;
  };

  const post = async (
    { endpoint, pool, modern }: ReturnType<typeof routeOf>,
    request: Request,
  ): Promise<Response> => {
    const body = await parseBody(request, options.maxBodyBytes);
    if (body instanceof Response) return body;
    const auth = await authorize(
      request,
      body,
      options.authenticate,
      options.requireAuthAll ?? false,
    );
    if (auth instanceof Response) return auth;
    if (!(await isLegacyRequest(request, body)))
      return modern.fetch(request, { parsedBody: body, ...(auth ? { authInfo: auth } : {}) });
    return sessions
      ? sessions.handle(endpoint.factory, request, body, auth)
      : pool.handle(request, body, auth);
  };

  const other = async (request: Request): Promise<Response> => {
    for (const handle of options.routes ?? []) {
      const answered = await handle(request);
      if (answered) return answered;
    }
    return jsonRpcError(
      404,
      -32000,
      `not found: MCP is served at ${MCP_PATH} and ${MCP_PATH}/<surface>`,
    );
  };

  const route = async (request: Request): Promise<Response> => {
    const allowed = options.allowedHosts;
    const refused =
      allowed &&
      (hostHeaderValidationResponse(request, allowed) ??
        originValidationResponse(request, allowed));
    if (refused) return refused;
    const preflight = cors.preflight(request);
    if (preflight) return preflight;
    const endpoint = options.endpointAt(new URL(request.url).pathname);
    if (!endpoint) return other(request);
    if (request.method === 'POST') return post(routeOf(endpoint), request);
    if (sessions && (request.method === 'GET' || request.method === 'DELETE')) {
      // no body, no method: a token sent must be valid, and the session says whether one is due
      const auth = await authorize(
        request,
        null,
        options.authenticate,
        options.requireAuthAll ?? false,
      );
      if (auth instanceof Response) return auth;
      return sessions.handle(endpoint.factory, request, undefined, auth);
    }
    return methodNotAllowed();
  };

  let inFlight = 0;
  let closing = false;
  let settle: (() => void) | undefined;
  let drained: Promise<void> = Promise.resolve();

  return {
    async fetch(request) {
      if (closing) return jsonRpcError(503, -32000, 'the server is shutting down');
      if (inFlight++ === 0) drained = new Promise((resolve) => (settle = resolve));
      try {
        return cors.decorate(request, await route(request));
      } catch (error) {
        log.error({ err: error }, 'mcp request failed');
        return jsonRpcError(500, -32603, 'internal server error');
      } finally {
        if (--inFlight === 0) settle?.();
      }
    },
    idle: () => drained,
    async close() {
      closing = true;
      await drained;
      await sessions?.close();
      for (const { modern } of routes.values()) await modern.close();
    },
  };
};
