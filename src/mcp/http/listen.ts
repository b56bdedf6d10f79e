import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Logger } from 'pino';
import { limitBody } from './body-limit.js';
import { MCP_PATH, type McpHttpHandler } from './handler.js';
import { markPeer } from './peer.js';

export type Listening = {
  /** the endpoint, e.g. http://127.0.0.1:7411/mcp */
  url: string;
  port: number;
  /**
   * Graceful stop: no new connections, new requests on open ones get 503, requests in flight
   * finish and are answered, then every connection closes.
   */
  close(): Promise<void>;
};

// After this long, connections that still hang (a client that never reads) are cut.
const CLOSE_GRACE_MS = 10_000;

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

const stopped = (server: Server): Promise<void> =>
  new Promise((resolve) => server.close(() => resolve()));

export const listen = async (
  handler: McpHttpHandler,
  options: { host: string; port: number; maxBodyBytes: number; log: Logger },
): Promise<Listening> => {
  const { log } = options;
  const node = toNodeHandler(handler, {
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => log.error({ err: error }, 'http request failed'),
  });
  const server = createServer((req, res) => {
    markPeer(req);
    limitBody(req, res, options.maxBodyBytes, (body) => void node(body, res));
  });
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
