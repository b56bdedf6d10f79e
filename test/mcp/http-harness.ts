import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { SYSTEM } from '../../src/commands/principal.js';
import type { Principal } from '../../src/commands/principal.js';
import type { AdmissionLimits } from '../../src/mcp/http/admission.js';
import type { Listening } from '../../src/mcp/http/listen.js';
import type { SessionLimits } from '../../src/mcp/http/session-limits.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces, type SelectedSurface } from '../../src/mcp/surfaces/index.js';
import { gate, probeSurface, silent, withApp } from './harness.js';
import { modules, surfacesOf } from '../../src/modules/index.js';

const allSurfaces = surfacesOf(modules);

export const VERSIONS_2025 = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;

export const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export const issueToken = async (app: App, principal: Principal = SYSTEM): Promise<string> => {
  const issued = await app.tokens.issue(principal, 'test', SYSTEM);
  await app.waitFor(issued.position);
  return issued.token;
};

export type Served = { app: App; url: string; listening: Listening; held: ReturnType<typeof gate> };

/** `intentlog serve` in this process on a free port: system and probe surfaces. */
export const withServer = (
  options: {
    stateful?: boolean;
    maxBodyBytes?: number;
    sessionLimits?: SessionLimits;
    admissionLimits?: AdmissionLimits;
  },
  body: (served: Served) => Promise<void>,
) =>
  withApp(async (app) => {
    const held = gate();
    const selection: SelectedSurface[] = [
      ...resolveSurfaces(allSurfaces, 'system'),
      { surface: probeSurface(held), tier: 'all' },
    ];
    const listening = await serveOverHttp({
      app,
      selection,
      log: silent,
      host: '127.0.0.1',
      port: 0,
      stateful: options.stateful ?? false,
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.sessionLimits ? { sessionLimits: options.sessionLimits } : {}),
      ...(options.admissionLimits ? { admissionLimits: options.admissionLimits } : {}),
    });
    try {
      await body({ app, url: listening.url, listening, held });
    } finally {
      held.open();
      await listening.close();
    }
  });

/** A real MCP client over Streamable HTTP, offering one protocol version. */
export const httpClient = async (
  url: string,
  options: { token?: string; version?: string } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : {},
  });
  const client = new Client(
    { name: 'test', version: '1' },
    options.version ? { supportedProtocolVersions: [options.version] } : {},
  );
  await client.connect(transport);
  return { client, transport };
};

/** One raw JSON-RPC POST. */
export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

export const initializeBody = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
