import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from 'pino';
import type { App } from '../app/app.js';
import type { Principal } from '../commands/principal.js';
import { serverFactory } from './server.js';
import type { SelectedSurface } from './surfaces/index.js';

// apart from serve.ts, so that `intentlog mcp` never loads the HTTP stack
type Common = { app: App | Promise<App>; selection: readonly SelectedSurface[]; log: Logger };

export type StdioOptions = Common & { principal: Principal };

export type StdioConnection = {
  /** resolves when the client closes the connection (stdin ends) */
  closed: Promise<void>;
  close(): Promise<void>;
};

/** Serves one MCP connection on this process's stdin/stdout. */
export const serveOverStdio = (options: StdioOptions): StdioConnection => {
  const factory = serverFactory({
    ...options,
    transport: 'stdio',
    principalOf: () => options.principal,
  });
  const wire = new StdioServerTransport();
  const handle = serveStdio(factory, {
    transport: wire,
    onerror: (error) => options.log.warn({ err: error }, 'stdio'),
  });
  // serveStdio owns the transport's onclose; chain ours after it to learn that stdin ended.
  const closed = new Promise<void>((resolve) => {
    const inner = wire.onclose;
    wire.onclose = () => {
      inner?.();
      resolve();
    };
  });
  return { closed, close: () => handle.close() };
};
