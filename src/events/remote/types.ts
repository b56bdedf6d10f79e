import type { EventLog } from '../event-log.js';

/** Whether this process holds the data dir (the writer) or forwards to the one that does. */
export type Role = 'writer' | 'follower';

/** What a writer op gets besides its arguments: the log of the process that holds the data dir. */
export type WriterContext = { log: EventLog };

/**
 * An operation an upper layer registers and the writer serves (`projections.waitFor`,
 * `projections.rebuild`). Args and result cross the socket as msgpack, so they are plain data.
 * A call in flight when the writer dies is sent again to the next writer: an op must be safe to
 * run twice.
 */
export type WriterOp<Args = never, Result = unknown> = (
  args: Args,
  context: WriterContext,
) => Promise<Result>;
export type WriterOps = Record<string, WriterOp>;

export type OpArgs<Op> = Op extends (args: infer A, context: WriterContext) => Promise<unknown>
  ? A
  : never;
export type OpResult<Op> = Op extends (args: never, context: WriterContext) => Promise<infer R>
  ? R
  : never;

/**
 * Called each time this process becomes the writer (at open, and after a takeover) with the
 * local log, before the socket listens; it should start what lives with the writer (the
 * projection engine) and return promptly. What it returns is called when the process stops
 * being the writer (close).
 */
export type OnWriter = (log: EventLog) => Promise<void | (() => Promise<void>)>;

/** What upper layers plug in: the writer hook and the ops the writer serves. */
export type WriterExtension<Ops extends WriterOps = WriterOps> = {
  onWriter?: OnWriter;
  ops?: Ops;
  /** errors no caller is waiting for, such as a failed takeover (the process keeps trying) */
  onError?: (error: unknown) => void;
  /**
   * A writer that serves no follower: for a short command that holds only part of the catalog
   * and none of the read models (`token create`). It never listens on the socket, so another
   * process keeps trying the lock and the socket until this one closes, and then elects a
   * writer that serves them all.
   */
  serveFollowers?: boolean;
};

/**
 * The log a process holds for its whole life: the same object before and after a takeover.
 * `call` runs a named writer op: a local call while this process is the writer, else a request
 * over the writer socket.
 */
export interface SharedEventLog<Ops extends WriterOps = WriterOps> extends EventLog {
  call<K extends keyof Ops & string>(op: K, args: OpArgs<Ops[K]>): Promise<OpResult<Ops[K]>>;
  /** the current role; `follower` also while a takeover is being decided */
  role(): Role;
}

const RESERVED = /^(log\.|models\.|live$)/;

/** Built-in op names belong to the log; a clash would silently shadow one or the other. */
export const assertOpNames = (ops: WriterOps | undefined): void => {
  for (const name of Object.keys(ops ?? {}))
    if (RESERVED.test(name)) throw new TypeError(`writer op name ${name} is reserved`);
};
