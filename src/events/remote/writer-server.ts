import { chmod, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { toWireError } from './errors.js';
import { encodeFrame, frameReader } from './frames.js';
import { ClientFrame, LIVE_OP, LiveArgs, type ServerFrame } from './protocol.js';
import type { Endpoint, WriterServer } from './route.js';

const isPipe = process.platform === 'win32';

/**
 * Serves the writer endpoint on the socket. Only the holder of the LevelDB lock calls this, so a
 * socket file already there was left by a writer that died (kill -9): it is removed. The socket
 * is made 0600 (the data dir is 0700 too): only its owner may talk to the writer.
 */
/**
 * A live subscriber that does not read what it is sent makes the writer buffer it: past this many
 * bytes queued on its connection the subscription is ended with `subscriber_overflow` (it can
 * subscribe again from its last position); past four times this, the connection is dropped.
 * The writer's memory stays bounded whatever a follower does.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export type ServeOptions = { maxBufferedBytes?: number };

export const serveWriter = async (
  path: string,
  endpoint: Endpoint,
  options: ServeOptions = {},
): Promise<WriterServer> => {
  const limit = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const connections = new Set<Socket>();
  // The listening server keeps the process alive until close: a writer serves until it closes.
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    serveConnection(socket, endpoint, limit);
  });
  if (!isPipe) await rm(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (!isPipe) await chmod(path, 0o600);
  // Answers in flight are dropped with their connections: the follower retries them on the
  // next writer, which cannot open the log before this one has finished with it.
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of connections) socket.destroy();
    });
  return { close };
};

const overflow = (limit: number) => ({
  kind: 'error' as const,
  code: 'subscriber_overflow',
  message:
    `live subscriber dropped: more than ${limit} bytes of events waited for it to read; ` +
    'subscribe again from the last position received',
});

const serveConnection = (socket: Socket, endpoint: Endpoint, limit: number): void => {
  const subscriptions = new Map<number, () => void>();
  const send = (frame: ServerFrame): void => {
    if (socket.destroyed) return;
    if (socket.writableLength > 4 * limit) return void socket.destroy(); // not reading at all
    socket.write(encodeFrame(frame));
  };
  /** A live event, unless its subscriber is too far behind: then the subscription ends. */
  const sendEvent = (id: number, event: unknown): void => {
    if (socket.writableLength <= limit) return send({ id, event });
    const stop = subscriptions.get(id);
    if (!stop) return;
    subscriptions.delete(id);
    stop();
    send({ id, end: true, error: overflow(limit) });
  };
  const startLive = (id: number, args: unknown): void => {
    const { after } = LiveArgs.parse(args ?? {});
    const ended = (frame: ServerFrame): void => {
      subscriptions.delete(id);
      send(frame);
    };
    const stop = endpoint.subscribe(after, {
      started: (from) => send({ id, ok: true, result: { after: from } }),
      next: (event) => sendEvent(id, event),
      error: (error) => ended({ id, end: true, error: toWireError(error) }),
      complete: () => ended({ id, end: true }),
    });
    subscriptions.set(id, stop);
  };
  const onFrame = (value: unknown): void => {
    const frame = ClientFrame.parse(value);
    if ('cancel' in frame) {
      subscriptions.get(frame.id)?.();
      subscriptions.delete(frame.id);
    } else if (frame.op === LIVE_OP) startLive(frame.id, frame.args);
    else
      endpoint.request(frame.op, frame.args).then(
        (result) => send({ id: frame.id, ok: true, result }),
        (error: unknown) => send({ id: frame.id, ok: false, error: toWireError(error) }),
      );
  };
  const read = frameReader(onFrame);
  socket.on('data', (chunk: Buffer) => {
    try {
      read(chunk);
    } catch {
      socket.destroy(); // not our protocol: drop the connection
    }
  });
  socket.on('error', () => {}); // 'close' follows and cleans up
  socket.on('close', () => {
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  });
};
