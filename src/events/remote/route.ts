import type { LogEvent } from '../envelope.js';
import type { EventLog } from '../event-log.js';
import { liveFrom } from './live-from.js';
import { isLogOp, runLogOp } from './log-ops.js';
import type { Role, WriterExtension, WriterOps } from './types.js';

/** How a live subscription reports; `error(WriterLostError)` means: subscribe again elsewhere. */
export type LiveObserver = {
  /** the position the subscription starts after, once the writer has registered it */
  started(after: number): void;
  next(event: LogEvent): void;
  error(error: unknown): void;
  complete(): void;
};

/** Where calls go: the local log while this process is the writer, else the writer's socket. */
export interface Route {
  readonly role: Role;
  request(op: string, args: unknown): Promise<unknown>;
  /** from `after`, or from the head when undefined; answers a function that stops it */
  subscribe(after: number | undefined, observer: LiveObserver): () => void;
  close(): Promise<void>;
  /** a writer's: resolves when its store failed a write and must be closed and opened again */
  readonly failed?: Promise<unknown>;
}

/** What the writer serves, to its own process and over the socket alike. */
export type Endpoint = Pick<Route, 'request' | 'subscribe'>;

export const writerEndpoint = (log: EventLog, ops: WriterOps): Endpoint => ({
  // not async: in the writer's own process every command passes here twice
  request: (op, args) => {
    try {
      if (isLogOp(op)) return runLogOp(log, op, args);
      const custom = Object.hasOwn(ops, op) ? ops[op] : undefined;
      if (!custom)
        throw Object.assign(new Error(`the writer serves no op ${op}`), { code: 'unknown_op' });
      return Promise.resolve(custom(args as never, { log }));
    } catch (error) {
      return Promise.reject(error);
    }
  },
  subscribe: (after, observer) => {
    let stopped = false;
    let stop = (): void => {
      stopped = true;
    };
    const start = async (): Promise<void> => {
      const from = after ?? (await log.head());
      if (stopped) return;
      observer.started(from);
      const subscription = liveFrom(log, from).subscribe({
        next: (event) => observer.next(event),
        error: (error: unknown) => observer.error(error),
        complete: () => observer.complete(),
      });
      stop = () => subscription.unsubscribe();
    };
    start().catch((error: unknown) => observer.error(error));
    return () => stop();
  },
});

/** A server of the writer socket, closed before the log so no answer outlives it. */
export type WriterServer = { close(): Promise<void> };

/**
 * Makes this process the writer over `log`: runs the onWriter hook, then serves (when there is
 * a socket to serve). Closing stops serving, then the hook's work, then the log (which releases
 * the LevelDB lock for the next writer).
 */
export const startWriter = async (
  log: EventLog,
  extension: WriterExtension,
  serve?: (endpoint: Endpoint) => Promise<WriterServer>,
): Promise<Route> => {
  let stop = async (): Promise<void> => {};
  try {
    const stopped = await extension.onWriter?.(log);
    if (typeof stopped === 'function') stop = stopped;
    const endpoint = writerEndpoint(log, extension.ops ?? {});
    const server = await serve?.(endpoint);
    const close = async (): Promise<void> => {
      try {
        await server?.close();
        await stop();
      } finally {
        await log.close();
      }
    };
    return { role: 'writer', ...endpoint, close };
  } catch (error) {
    try {
      await stop();
    } finally {
      await log.close();
    }
    throw error;
  }
};
