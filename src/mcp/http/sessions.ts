import { randomUUID } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';
import { jsonRpcError } from './responses.js';

type Session = {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  seen: number;
};

/** A session nobody has used for this long is closed (its client is gone without a DELETE). */
const IDLE_MS = 30 * 60 * 1000;

/**
 * `--stateful`: the 2025 sessionful Streamable HTTP binding. `initialize` opens a session
 * (`Mcp-Session-Id`), later requests name it, `DELETE` ends it, `GET` opens its SSE stream.
 * Sessions live in this process's memory only.
 */
export const sessionStore = (factory: () => McpServer) => {
  const sessions = new Map<string, Session>();

  const open = async (request: Request, parsedBody: unknown, authInfo?: AuthInfo) => {
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, { server, transport, seen: Date.now() }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody, authInfo });
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions)
      if (now - s.seen > IDLE_MS) {
        sessions.delete(id);
        void s.server.close();
      }
  }, 60_000);
  sweep.unref();

  return {
    async handle(request: Request, parsedBody?: unknown, authInfo?: AuthInfo): Promise<Response> {
      const id = request.headers.get('mcp-session-id');
      if (id === null) {
        if (request.method === 'POST' && isInitializeRequest(parsedBody))
          return open(request, parsedBody, authInfo);
        return jsonRpcError(400, -32000, 'Bad Request: send Mcp-Session-Id (from initialize)');
      }
      const session = sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, 'Session not found');
      session.seen = Date.now();
      return session.transport.handleRequest(request, { parsedBody, authInfo });
    },
    get size() {
      return sessions.size;
    },
    async close(): Promise<void> {
      clearInterval(sweep);
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.server.close()));
    },
  };
};

export type SessionStore = ReturnType<typeof sessionStore>;
