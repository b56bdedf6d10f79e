import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { App } from '../app/app.js';
import { appMetrics, type AppMetrics } from '../app/metrics.js';
import type { AdmissionLimits, Credentialed } from './http/admission.js';
import {
  bearerToken,
  kernelAuthenticate,
  principalOfAuth,
  type Authenticate,
} from './http/auth.js';
import { corsPolicy } from './http/cors.js';
import { MCP_PATH, mcpHttpHandler, type HttpRoute, type McpEndpoint } from './http/handler.js';
import { listen, type Listening } from './http/listen.js';
import type { SessionLimits } from './http/session-limits.js';
import { healthRoute, metricsRoute } from './http/observe-routes.js';
import { oauthRoutes, type ConsentSession } from './oauth/routes.js';
import { serverFactory } from './server.js';
import { selectSurfaces, SurfaceError } from './surfaces/select.js';
import type { SelectedSurface } from './surfaces/index.js';
import type { Surface } from './tool.js';

type Common = {
  app: App;
  selection: readonly SelectedSurface[];
  log: Logger;
  /** `--read-only` on every endpoint, `/mcp` and each `/mcp/<surface>` (server.ts) */
  readOnly?: boolean;
};

export { serveOverStdio, type StdioConnection, type StdioOptions } from './stdio.js';

export const DEFAULT_PORT = 7411;
export const DEFAULT_HOST = '127.0.0.1';
/** Large enough for any tool call a contract defines; a bigger body is refused with 413. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type HttpOptions = Common & {
  /** surfaces also served each at its own path, `/mcp/<surface>[/<tier>]` (default: none) */
  mounted?: readonly Surface[];
  host: string;
  port: number;
  stateful: boolean;
  /** extra hostnames to accept in Host/Origin, e.g. a name this machine is reached by */
  allowedHosts?: string[];
  /** origins besides loopback pages whose scripts may call MCP and sign-in (http/cors.ts) */
  corsOrigins?: string[];
  maxBodyBytes?: number;
  /** default: the kernel's tokens */
  authenticate?: Authenticate;
  /** what the port serves besides MCP (handler.ts `routes`) */
  routes?: readonly HttpRoute[];
  /** the `--store` the app was opened with, as /healthz names it (default: LevelDB) */
  store?: string;
  /** default: a registry of this server's own (GET /metrics) */
  metrics?: AppMetrics;
  /** 401 for every MCP request without a valid token, discovery included */
  requireAuthAll?: boolean;
  /** bounds of `stateful` sessions (http/session-limits.ts); default SESSION_LIMITS */
  sessionLimits?: SessionLimits;
  /** what is held for clients without credentials (http/admission.ts); default ADMISSION_LIMITS */
  admissionLimits?: AdmissionLimits;
  /**
   * Who is at the browser (the web view's session): given, `serve` is also the OAuth
   * authorization server, with its consent page (src/mcp/oauth/); absent, static tokens only.
   */
  consent?: ConsentSession;
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * DNS rebinding protection: on a loopback address only loopback names are accepted in Host and
 * Origin (plus any named). Bound elsewhere, the names given are checked; with none, the bearer
 * token is the only guard, which is what a server reachable by address needs anyway.
 */
export const allowedHostsFor = (host: string, extra: string[] = []): string[] | undefined => {
  if (LOOPBACK.has(host) || host.startsWith('127.'))
    return [...localhostAllowedHostnames(), ...extra];
  return extra.length > 0 ? [host, ...extra] : undefined;
};

/**
 * The endpoints of one server: `/mcp` serves the selection; `/mcp/<surface>` and
 * `/mcp/<surface>/<tier>` serve one mounted surface alone, so two contracts that both define a
 * tool (`create_project`) are served by one process, one log, one token. Made on first use.
 */
const endpoints = (options: HttpOptions, metrics: AppMetrics) => {
  const made = new Map<string, McpEndpoint>();
  const endpointFor = (selection: readonly SelectedSurface[]): McpEndpoint => ({
    factory: serverFactory({
      ...options,
      selection,
      transport: 'http',
      principalOf: (request) => principalOfAuth(request.http?.authInfo),
      observe: metrics.observe,
    }),
  });
  const mounted = new Map((options.mounted ?? []).map((s) => [s.name, s]));
  const mountedAt = (path: string): McpEndpoint | undefined => {
    const [name = '', tier, ...rest] = path.slice(MCP_PATH.length + 1).split('/');
    if (!mounted.has(name) || rest.length > 0) return undefined;
    try {
      return endpointFor(selectSurfaces(tier ? `${name}:${tier}` : name, mounted));
    } catch (error) {
      if (error instanceof SurfaceError) return undefined;
      throw error;
    }
  };
  return (path: string): McpEndpoint | undefined => {
    const known = made.get(path);
    if (known) return known;
    const endpoint =
      path === MCP_PATH
        ? endpointFor(options.selection)
        : path.startsWith(`${MCP_PATH}/`)
          ? mountedAt(path)
          : undefined;
    // only real endpoints are kept: a path anyone can send must not grow the map
    if (endpoint) made.set(path, endpoint);
    return endpoint;
  };
};

/**
 * Whether a request's bearer token or web session cookie is valid now: such a request may send
 * the full `--max-body` before it is handled (admission.ts). Read from its headers alone.
 */
const credentialsOf =
  (authenticate: Authenticate, consent: ConsentSession | undefined): Credentialed =>
  async (req) => {
    const headers = new Headers();
    for (const name of ['authorization', 'cookie'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request('http://localhost/', { headers });
    const token = bearerToken(request);
    if (token !== undefined && (await authenticate(token))) return true;
    return consent !== undefined && (await consent(request)) !== undefined;
  };

/** Serves MCP over Streamable HTTP at POST /mcp (and /mcp/<surface>) until `close()`. */
export const serveOverHttp = async (options: HttpOptions): Promise<Listening> => {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const metrics = options.metrics ?? appMetrics(options.app, { store: options.store });
  const authenticate = options.authenticate ?? kernelAuthenticate(options.app);
  const handler = mcpHttpHandler({
    endpointAt: endpoints(options, metrics),
    routes: [
      healthRoute(options.app, options.store),
      metricsRoute(metrics),
      ...oauthRoutes(options.app, options.consent),
      ...(options.routes ?? []),
    ],
    authenticate,
    stateful: options.stateful,
    requireAuthAll: options.requireAuthAll ?? false,
    ...(options.sessionLimits ? { sessionLimits: options.sessionLimits } : {}),
    // an origin named for CORS passes the Origin check too (its page sends its own Origin)
    allowedHosts: allowedHostsFor(options.host, [
      ...(options.allowedHosts ?? []),
      ...(options.corsOrigins ?? []).map((o) => new URL(o).hostname),
    ]),
    cors: corsPolicy(options.corsOrigins),
    maxBodyBytes,
    log: options.log,
  });
  return listen(handler, {
    host: options.host,
    port: options.port,
    maxBodyBytes,
    log: options.log,
    credentialed: credentialsOf(authenticate, options.consent),
    ...(options.admissionLimits ? { admissionLimits: options.admissionLimits } : {}),
  });
};
