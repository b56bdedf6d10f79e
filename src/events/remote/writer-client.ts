import { createConnection, type Socket } from 'node:net';
import type { LogEvent } from '../envelope.js';
import { fromWireError, LogClosedError, WriterLostError } from './errors.js';
import { encodeFrame, frameReader } from './frames.js';
import { LIVE_OP, LiveStarted, ServerFrame } from './protocol.js';
import type { LiveObserver, Route } from './route.js';
import { withTimeout } from './timeouts.js';

/** Connect errors that mean "no writer listens there (yet)": try the lock, then again. */
const NO_WRITER = new Set(['ENOENT', 'ECONNREFUSED', 'EAGAIN']);

/**
 * Connects to the writer socket. Answers undefined when nobody listens (no socket file, or one
 * left by a dead writer). `onLost` is called when the writer goes away, before the calls in
 * flight fail with WriterLostError (the caller retries them on the next writer).
 */
export const connectWriter = (path: string, onLost: () => void): Promise<Route | undefined> =>
  new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const failed = (error: Error & { code?: string }): void => {
      socket.destroy();
      if (NO_WRITER.has(error.code ?? '')) resolve(undefined);
      else reject(error);
    };
    socket.once('error', failed);
    socket.once('connect', () => {
      socket.off('error', failed);
      socket.unref();
      resolve(followerRoute(socket, onLost));
    });
  });

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

const followerRoute = (socket: Socket, onLost: () => void): Route => {
  const pending = new Map<number, Pending>();
  const subscriptions = new Map<number, LiveObserver>();
  let nextId = 0;
  let closing = false;
  let ended: Error | undefined;
  let closed: () => void;
  const whenClosed = new Promise<void>((resolve) => (closed = resolve));

  // The connection keeps the process alive only while something waits on it: an idle follower
  // (say, a CLI command that forgot to close) may exit.
  const holdProcess = (): void => {
    if (pending.size + subscriptions.size > 0) socket.ref();
    else socket.unref();
  };

  const settle = (frame: ServerFrame): void => {
    if ('ok' in frame) {
      const call = pending.get(frame.id);
      pending.delete(frame.id);
      if (frame.ok) call?.resolve(frame.result);
      else call?.reject(fromWireError(frame.error));
      const observer = subscriptions.get(frame.id);
      if (observer && frame.ok) observer.started(LiveStarted.parse(frame.result).after);
      else if (observer && !frame.ok) {
        subscriptions.delete(frame.id);
        observer.error(fromWireError(frame.error));
      }
    } else if ('end' in frame) {
      const observer = subscriptions.get(frame.id);
      subscriptions.delete(frame.id);
      if (frame.error) observer?.error(fromWireError(frame.error));
      else observer?.complete();
    } else subscriptions.get(frame.id)?.next(frame.event as LogEvent);
  };
  const onFrame = (value: unknown): void => {
    settle(ServerFrame.parse(value));
    holdProcess();
  };

  const read = frameReader(onFrame);
  socket.on('data', (chunk: Buffer) => {
    try {
      read(chunk);
    } catch {
      socket.destroy(); // a garbled answer: treat it as a lost writer
    }
  });
  socket.on('error', () => {}); // 'close' follows
  socket.on('close', () => {
    ended = closing ? new LogClosedError() : new WriterLostError();
    if (!closing) onLost();
    for (const call of pending.values()) call.reject(ended);
    pending.clear();
    for (const observer of subscriptions.values())
      if (closing) observer.complete();
      else observer.error(ended);
    subscriptions.clear();
    closed();
  });

  const send = (frame: object): void => {
    socket.write(encodeFrame(frame));
  };

  return {
    role: 'follower',
    request: (op, args) => {
      const id = nextId++;
      const answer = new Promise((resolve, reject) => {
        if (ended) return reject(ended);
        const frame = encodeFrame({ id, op, args });
        pending.set(id, { resolve, reject });
        holdProcess();
        socket.write(frame);
      });
      // a late answer after the timeout finds no pending call and is dropped
      return withTimeout(op, answer, () => {
        pending.delete(id);
        holdProcess();
      });
    },
    subscribe: (after, observer) => {
      if (ended) {
        observer.error(ended);
        return () => {};
      }
      const id = nextId++;
      subscriptions.set(id, observer);
      holdProcess();
      send({ id, op: LIVE_OP, args: { after } });
      return () => {
        if (!subscriptions.delete(id) || ended) return;
        holdProcess();
        send({ id, cancel: true });
      };
    },
    close: async () => {
      closing = true;
      socket.destroy();
      await whenClosed;
    },
  };
};
