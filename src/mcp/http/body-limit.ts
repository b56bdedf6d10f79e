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

const errorBody = (message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });

/** What a refused request is answered: its status, message and headers besides. */
export type Refusal = { status: number; message: string; headers?: Record<string, string> };

/** The refusal now; the end of the response, and so the connection's, once the body is in. */
export const refuse = (req: IncomingMessage, res: ServerResponse, refusal: Refusal): void => {
  const body = errorBody(refusal.message);
  res.writeHead(refusal.status, {
    ...refusal.headers,
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

const tooLarge = (max: number): Refusal => ({
  status: 413,
  message: `request body over ${max} bytes`,
});

/**
 * Bytes a request's body may hold, shared with other requests (admission.ts): `take` says
 * whether there is room for `n` more, `give` returns them.
 */
export type BodyBudget = { take(n: number): boolean; give(n: number): void; refusal: Refusal };

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
 * Passes `req` on to `next` when its body is within `max` bytes (and, given a budget, within the
 * bytes it has room for), else answers the refusal itself. A body of declared length is refused
 * before it is read (HTTP/1.1 frames it: it cannot grow past its Content-Length); a chunked one
 * is read up to the limit first. The budget's bytes are given back when the response closes.
 */
export const limitBody = (
  req: IncomingMessage,
  res: ServerResponse,
  max: number,
  next: (req: IncomingMessage) => void,
  budget?: BodyBudget,
): void => {
  let held = 0;
  const hold = (n: number): boolean => {
    if (budget && !budget.take(n)) return false;
    held += n;
    return true;
  };
  if (budget) res.once('close', () => budget.give(held));
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    if (Number(declared) > max) refuse(req, res, tooLarge(max));
    else if (!hold(Number(declared) || 0)) refuse(req, res, budget!.refusal);
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
    const within = (size += chunk.length) <= max;
    if (within && hold(chunk.length)) return void chunks.push(chunk);
    stop();
    chunks.length = 0;
    refuse(req, res, within ? budget!.refusal : tooLarge(max));
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
