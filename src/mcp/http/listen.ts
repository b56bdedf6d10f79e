import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Logger } from 'pino';
import { admission, type AdmissionLimits, type Credentialed } from './admission.js';
import { MCP_PATH, type McpHttpHandler } from './handler.js';
import { markPeer } from './peer.js';

export type Listening = {
  /** the endpoint, e.g. http://127.0.0.1:7411/mcp */
  url: string;
  port: number;
  /** what the server holds for clients now (admission.ts) */
  readonly held: { connections: number; anonymousHeldBytes: number };
  /**
   * Graceful stop: no new connections, new requests on open ones get 503, requests in flight
   * finish and are answered, then every connection closes.
   */
  close(): Promise<void>;
};

// After this long, connections that still hang (a client that never reads) are cut.
const CLOSE_GRACE_MS = 10_000;
// Node's defaults are 60 s and 300 s; a request's headers and body take well under these.
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 60_000;

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

const stopped = (server: Server): Promise<void> =>
  new Promise((resolve) => server.close(() => resolve()));

export type ListenOptions = {
  host: string;
  port: number;
  maxBodyBytes: number;
  log: Logger;
  /** whether a request's credentials are valid (admission.ts); default: none is */
  credentialed?: Credentialed;
  /** default ADMISSION_LIMITS */
  admissionLimits?: AdmissionLimits;
};

export const listen = async (
  handler: McpHttpHandler,
  options: ListenOptions,
): Promise<Listening> => {
  const { log } = options;
  const node = toNodeHandler(handler, {
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => log.error({ err: error }, 'http request failed'),
  });
  const gate = admission(
    options.credentialed ?? (async () => false),
    options.maxBodyBytes,
    options.admissionLimits,
  );
  const server = createServer((req, res) => {
    markPeer(req);
    gate.admit(req, res, (body) => void node(body, res));
  });
  server.on('connection', gate.connection);
  // a client that sends its headers, or its body, slowly holds a connection: not for long
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostForUrl(options.host)}:${port}${MCP_PATH}`,
    port,
    get held() {
      return gate.stats;
    },
    async close() {
      const closed = stopped(server);
      await handler.close();
      // A keep-alive connection turns idle only once its last answer is written: keep closing
      // idle ones until none is left, rather than wait for the keep-alive timeout.
      const idle = setInterval(() => server.closeIdleConnections(), 20);
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.closeIdleConnections();
      await closed;
      clearInterval(idle);
      clearTimeout(cut);
    },
  };
};
