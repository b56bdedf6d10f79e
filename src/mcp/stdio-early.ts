import { StringDecoder } from 'node:string_decoder';
import { Readable, type Writable } from 'node:stream';
import {
  earlyAnswer,
  legacyInitialize,
  readEarlyTable,
  selectEarly,
  type EarlyTable,
  type InitializeResult,
} from './early-initialize.js';

/*
 * The first moments of `intentlog mcp`: hosts start a stdio server on every session and wait
 * for its answer to `initialize`, which needs nothing of the store, the kernel or the surfaces.
 * This module answers it from the build's table while they load, keeps every byte the client
 * sends, and hands stdin back to the full server (stdio.ts), which reads the same bytes again:
 * it replays `initialize` to the server, whose own answer is dropped, then everything after.
 * Imports nothing but early-initialize.ts and Node's own modules, on purpose.
 */

/** The early answer given, for the full server to recognise (and drop) its own. */
export type EarlyAnswered = { id: string | number; result: InitializeResult };

export type EarlyStdio = {
  /** what was answered before the hand-over, if anything */
  answered: EarlyAnswered | undefined;
  /**
   * Stops reading and answers the stream to read instead, paused, with every byte read so far
   * at its head: stdin itself, or (when stdin already ended) a copy of what it held. The
   * caller attaches its reader and resumes it. Once only.
   */
  handOver(): Readable;
  /** Stops reading and drops what was read: nobody will answer it. */
  release(): void;
};

/**
 * The process's early reader. It lives on `globalThis`, not in this module, because the build
 * gives `mcp` two bundles (scripts/bundle.mjs): main.js answers early with its copy of this
 * module, and mcp-main.js takes the reader over with its own.
 */
const EARLY = Symbol.for('intentlog.early-stdio');
const holder = globalThis as { [EARLY]?: EarlyStdio | undefined };

/** The early reader of this process, once: stdio.ts takes it to connect the full server. */
export const takeEarlyStdio = (): EarlyStdio | undefined => {
  const taken = holder[EARLY];
  holder[EARLY] = undefined;
  return taken;
};

/**
 * For a command that ends without serving (a bad `--actor`, a store that fails early): stops
 * reading stdin, which would otherwise keep the process alive with no one to answer.
 */
export const releaseEarlyStdio = (): void => {
  takeEarlyStdio()?.release();
};

export type EarlyOptions = {
  /** `--surface` as given (default: the table's) */
  spec?: string | undefined;
  stdin?: Readable;
  stdout?: Writable;
  table?: EarlyTable | undefined;
};

/**
 * Starts reading stdin; the first line, if it is a 2025-era `initialize` and the table knows
 * every surface asked for, is answered at once. Resolves when the first line was seen, stdin
 * ended, or `waitMs` passed: the caller then loads the full server. Without a table (running
 * from source) or with a `--surface` the full server would refuse, it reads nothing.
 */
export const startEarlyStdio = async (options: EarlyOptions, waitMs: number): Promise<void> => {
  const table = 'table' in options ? options.table : readEarlyTable();
  const chosen = table && selectEarly(table, options.spec ?? table.defaultSpec);
  if (!table || !chosen) return;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const chunks: Buffer[] = [];
  // a chunk may end inside a UTF-8 character: decoded across chunks, it stays whole
  const decoder = new StringDecoder('utf8');
  let head = '';
  let seen = false;
  let ended = false;
  let seeFirst = (): void => undefined;
  const first = new Promise<void>((resolve) => (seeFirst = resolve));
  const early: EarlyStdio = {
    answered: undefined,
    release: () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      // paused with nothing put back, stdin stops reading and lets the process end
      stdin.pause();
    },
    handOver: () => {
      early.release();
      const held = Buffer.concat(chunks);
      chunks.length = 0;
      // a stream cannot take bytes back after its end: the reader gets them on their own
      if (ended) return Readable.from(held.length > 0 ? [held] : []).pause();
      if (held.length > 0) stdin.unshift(held);
      return stdin;
    },
  };
  const examine = (line: string): void => {
    seen = true;
    seeFirst();
    const request = legacyInitialize(line);
    if (!request) return;
    const result = earlyAnswer(table, chosen, request.protocolVersion);
    early.answered = { id: request.id, result };
    stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n`);
  };
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    if (seen) return;
    head += decoder.write(chunk);
    const end = head.indexOf('\n');
    if (end >= 0) examine(head.slice(0, end).replace(/\r$/, ''));
  };
  const onEnd = (): void => {
    ended = true;
    seeFirst();
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  holder[EARLY] = early;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([first, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
};
