import { createConnection } from 'node:net';
import { hookOutputOf, HOOK_OP, type HookCall, type HookOutput } from '../app/intent/hook-wire.js';
import { Packr } from 'msgpackr/pack';
import { PACK_OPTIONS } from '../events/pack-options.js';
import { framing } from '../events/remote/frame-format.js';
import { writerSocketPath } from '../events/remote/socket-path.js';

/**
 * What asking the data dir's writer to run a Hook came to: its answer; `failed` (it ran the Hook
 * and failed, or answered garbage: the Hook continues); or `none` (no writer listens, or it
 * serves no `intent.hook`, or it went away before answering: the Hook opens the app itself).
 */
export type WriterAnswer =
  { kind: 'answered'; output: HookOutput } | { kind: 'failed' } | { kind: 'none' };

const NONE: WriterAnswer = { kind: 'none' };
const FAILED: WriterAnswer = { kind: 'failed' };

// msgpackr's pure-JS build: the package's main entry loads its native decoder, which costs a
// Hook more start-up (finding and loading the addon) than it could ever save on one small answer
const packr = new Packr(PACK_OPTIONS);
const { encodeFrame, frameReader } = framing({
  encode: (value) => packr.pack(value),
  decode: (bytes) => packr.unpack(bytes),
});

/** Connect errors that mean nobody listens: no socket file, or one a dead writer left. */
const NO_WRITER = new Set(['ENOENT', 'ECONNREFUSED', 'EAGAIN']);

/** The one answer frame of the request, read as far as a Hook needs it. */
const answerOf = (frame: unknown): WriterAnswer => {
  if (frame === null || typeof frame !== 'object') return FAILED;
  const { ok, result, error } = frame as { ok?: unknown; result?: unknown; error?: unknown };
  if (ok === true) {
    const output = hookOutputOf(result);
    return output ? { kind: 'answered', output } : FAILED;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'unknown_op' ? NONE : FAILED;
};

/**
 * Asks the writer of `dataDir`, over its socket, to run one Hook (the `intent.hook` writer op),
 * with one request frame of the writer protocol (remote/protocol.ts). Loads no store, catalog or
 * read model: this is why a Hook answered by a running `intentlog mcp` starts fast.
 */
export const askWriter = (dataDir: string, call: HookCall): Promise<WriterAnswer> =>
  new Promise((resolve) => {
    let path: string;
    try {
      path = writerSocketPath(dataDir);
    } catch {
      return resolve(NONE);
    }
    const socket = createConnection(path);
    const done = (answer: WriterAnswer): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('error', (error: Error & { code?: string }) =>
      done(NO_WRITER.has(error.code ?? '') ? NONE : FAILED),
    );
    // gone before answering (it exited mid-call): whoever holds the data dir next is asked by
    // opening the app, which waits for the lock or the new writer
    socket.once('close', () => done(NONE));
    const read = frameReader((frame) => done(answerOf(frame)));
    socket.on('data', (chunk: Buffer) => {
      try {
        read(chunk);
      } catch {
        done(FAILED);
      }
    });
    socket.once('connect', () => socket.write(encodeFrame({ id: 0, op: HOOK_OP, args: call })));
  });
