import {
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';

/** Idle servers kept per endpoint: as many as requests ever ran at once, up to this. */
const MAX_IDLE = 128;

/**
 * Stateless Streamable HTTP without building a server per request: a server (every tool of the
 * endpoint registered, schemas converted) is made once and reused, one request at a time, each
 * with a fresh single-use transport — the SDK allows `connect` again after `close`. Per call
 * that leaves the transport, auth, validation, the tool and the answer.
 *
 * `initialize` gets a fresh server that is then dropped: it is the one request that leaves
 * state on a server (the client's capabilities, the negotiated version), and it is rare.
 */
export const serverPool = (factory: () => McpServer) => {
  const idle: McpServer[] = [];
  let made = 0;
  return {
    async handle(request: Request, parsedBody: unknown, authInfo?: AuthInfo): Promise<Response> {
      const once = isInitializeRequest(parsedBody);
      const server = (!once && idle.pop()) || (made++, factory());
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      let reusable = !once;
      try {
        return await transport.handleRequest(request, { parsedBody, authInfo });
      } catch (error) {
        reusable = false;
        throw error;
      } finally {
        await server.close();
        if (reusable && idle.length < MAX_IDLE) idle.push(server);
      }
    },
    /** servers built so far (a test reads it: one per concurrent request, not per request) */
    get made() {
      return made;
    },
  };
};

export type ServerPool = ReturnType<typeof serverPool>;
