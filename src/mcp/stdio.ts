import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { App } from '../app/app.js';
import type { Principal } from '../commands/principal.js';
import { serverFactory } from './server.js';
import { takeEarlyStdio, type EarlyAnswered } from './stdio-early.js';
import { stdioDepthGuard } from './stdio-depth-guard.js';
import { tooDeepLine } from './json-depth.js';
import type { SelectedSurface } from './surfaces/index.js';

// apart from serve.ts, so that `intentlog mcp` never loads the HTTP stack
type Common = {
  app: App | Promise<App>;
  selection: readonly SelectedSurface[];
  log: Logger;
  /** `--read-only` (server.ts) */
  readOnly?: boolean;
};

export type StdioOptions = Common & {
  principal: Principal;
  /** default: this process's stdin and stdout */
  streams?: { stdin: Readable; stdout: Writable };
};

export type StdioConnection = {
  /** resolves when the client closes the connection (stdin ends) */
  closed: Promise<void>;
  close(): Promise<void>;
};

const isAnswerTo = (message: JSONRPCMessage, id: string | number): boolean =>
  'id' in message && message.id === id && ('result' in message || 'error' in message);

/**
 * The stdio wire after stdio-early.ts answered `initialize`: the server reads that request again
 * (so it knows the client and the protocol version), and its own answer, the same as the early
 * one (test/edges/early-initialize.test.ts holds them equal), is not sent twice.
 */
class AfterEarlyAnswer extends StdioServerTransport {
  #early: EarlyAnswered | undefined;
  readonly #log: Logger;

  constructor(input: Readable, output: Writable, early: EarlyAnswered | undefined, log: Logger) {
    super(input, output);
    this.#early = early;
    this.#log = log;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const early = this.#early;
    if (!early || !isAnswerTo(message, early.id)) return super.send(message);
    this.#early = undefined;
    const own = 'result' in message ? message.result : message;
    if (JSON.stringify(own) !== JSON.stringify(early.result))
      this.#log.warn({ early: early.result, own }, 'initialize was answered early, differently');
    return Promise.resolve();
  }
}

/** Serves one MCP connection on this process's stdin/stdout. */
export const serveOverStdio = (options: StdioOptions): StdioConnection => {
  const factory = serverFactory({
    ...options,
    transport: 'stdio',
    principalOf: () => options.principal,
  });
  const { stdin, stdout } = options.streams ?? { stdin: process.stdin, stdout: process.stdout };
  const early = takeEarlyStdio();
  const input = early?.handOver();
  const source = input ?? stdin;
  // too deep a line is answered here, before the SDK parses it (json-depth.ts)
  const lines = source.pipe(stdioDepthGuard((id) => stdout.write(tooDeepLine(id))));
  const wire = input
    ? new AfterEarlyAnswer(lines, stdout, early!.answered, options.log)
    : new StdioServerTransport(lines, stdout);
  const handle = serveStdio(factory, {
    transport: wire,
    onerror: (error) => options.log.warn({ err: error }, 'stdio'),
  });
  // the bytes read before the hand-over come first, then the rest of stdin
  input?.resume();
  // serveStdio owns the transport's onclose; chain ours after it to learn that stdin ended.
  const closed = new Promise<void>((resolve) => {
    const inner = wire.onclose;
    wire.onclose = () => {
      inner?.();
      // as the SDK's transport does with its input: stop reading, so the process may end
      source.unpipe(lines);
      source.pause();
      resolve();
    };
  });
  return { closed, close: () => handle.close() };
};
