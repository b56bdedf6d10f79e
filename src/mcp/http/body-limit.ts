import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/*
 * A body over the limit, answered so that the client reads the answer. Closing the connection
 * while the client is still sending (what the SDK's adapter does) makes the kernel reset it: a
 * fetch client then sees EPIPE, never the 413 (issue 28). So the 413 goes out at once, the rest
 * of the body is read and dropped, and the connection closes after it (a lingering close).
 */

/** How much of a refused body is read and dropped, and for how long, before the connection is cut. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 10_000;

const tooLargeBody = (max: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: `request body over ${max} bytes` },
  });

/** The 413 now; the end of the response, and so the connection's, once the body is in. */
const refuse = (req: IncomingMessage, res: ServerResponse, max: number): void => {
  const body = tooLargeBody(max);
  res.writeHead(413, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.write(body);
  let dropped = 0;
  const finish = () => {
    clearTimeout(timer);
    res.end();
  };
  // a client that sends on and on is cut: the answer is out, it may not have read it
  const cut = () => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(cut, DRAIN_MS);
  if (req.readableEnded) return finish();
  req.on('data', (chunk: Buffer) => {
    if ((dropped += chunk.length) > DRAIN_BYTES) cut();
  });
  req.once('end', finish);
  req.once('error', () => clearTimeout(timer));
  req.resume();
};

/**
 * The request as the SDK's adapter reads it (it takes any object with `method`, `url`, `headers`
 * that iterates its body), over bytes already read.
 */
const readAgain = (req: IncomingMessage, chunks: Buffer[]): IncomingMessage =>
  Object.assign(Readable.from(chunks), {
    method: req.method,
    url: req.url,
    headers: req.headers,
  }) as unknown as IncomingMessage;

/**
 * Passes `req` on to `next` when its body is within `max` bytes, else answers 413 itself. A body
 * of declared length is refused before it is read (HTTP/1.1 frames it: it cannot grow past
 * its Content-Length); a chunked one is read up to the limit first.
 */
export const limitBody = (
  req: IncomingMessage,
  res: ServerResponse,
  max: number,
  next: (req: IncomingMessage) => void,
): void => {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    if (Number(declared) > max) refuse(req, res, max);
    else next(req);
    return;
  }
  if (req.headers['transfer-encoding'] === undefined) return next(req);
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', stop);
  };
  const onData = (chunk: Buffer) => {
    if ((size += chunk.length) <= max) return void chunks.push(chunk);
    stop();
    refuse(req, res, max);
  };
  const onEnd = () => {
    stop();
    next(readAgain(req, chunks));
  };
  req.on('data', onData);
  req.once('end', onEnd);
  // a client gone mid-body: nobody to answer
  req.once('error', stop);
};
