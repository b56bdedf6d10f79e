import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

/** The reference: the SDK's own idiom, one echo tool, a fresh server per request. */
export const echoServer = (): McpServer => {
  const server = new McpServer({ name: 'echo', version: '1' }, { capabilities: { tools: {} } });
  server.registerTool(
    'echo',
    { description: 'echoes its text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
};

/**
 * Echo over Streamable HTTP, the SDK's stateless idiom with JSON answers (as `serve` answers):
 * a fresh server and transport per request, on a free port.
 */
export const serveEchoHttp = async () => {
  const handler = {
    fetch: async (request: Request) => {
      const server = echoServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        await server.close();
      }
    },
  };
  const node = toNodeHandler(handler);
  const server = createServer((req, res) => void node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

// `node mcp-echo.js --stdio`: the echo server over stdio, for the sequential stdio figure.
if (process.argv.includes('--stdio')) await echoServer().connect(new StdioServerTransport());
