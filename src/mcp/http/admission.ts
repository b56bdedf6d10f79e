import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { limitBody, type BodyBudget } from './body-limit.js';

/**
 * What a server holds for clients it does not know (issue 40: 300 unauthenticated ~1 MiB chunked
 * bodies held open grew the server by 304 MB). A request "with credentials" carries a bearer
 * token or a web session cookie that is valid now; every other one is anonymous.
 */
export type AdmissionLimits = {
  /** connections open at once; past it a new one is answered 503 and closed */
  connections: number;
  /** the largest body an anonymous request may send (413 past it) */
  anonymousBodyBytes: number;
  /** the bytes all anonymous requests together may hold at once (503 past it) */
  anonymousHeldBytes: number;
};

export const ADMISSION_LIMITS: AdmissionLimits = {
  connections: 512,
  anonymousBodyBytes: 64 * 1024,
  anonymousHeldBytes: 4 * 1024 * 1024,
};

/** Whether a request's credentials (its headers) are valid now. */
export type Credentialed = (req: IncomingMessage) => Promise<boolean>;

const RETRY_AFTER_S = '1';

/** 503 written on a connection before any request is read: the server takes no more. */
const busyConnection = (): string => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: 'too many connections are open; try again later' },
  });
  return [
    'HTTP/1.1 503 Service Unavailable',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Retry-After: ${RETRY_AFTER_S}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
};

/** Only requests that name credentials are worth checking; the rest are anonymous at once. */
const namesCredentials = (req: IncomingMessage): boolean =>
  req.headers.authorization !== undefined || req.headers.cookie !== undefined;

/**
 * The gate every request passes before its body is read: the connection count, then the body's
 * limits, the smaller ones and a shared budget for anonymous requests. A refusal is answered at
 * once and holds nothing: past the budget or the connection count 503 with `Retry-After`.
 */
export const admission = (
  credentialed: Credentialed,
  maxBodyBytes: number,
  limits: AdmissionLimits = ADMISSION_LIMITS,
) => {
  let open = 0;
  let held = 0;
  const refused = new WeakSet<Socket>();
  const anonymousBudget: BodyBudget = {
    take: (n) => (held + n <= limits.anonymousHeldBytes ? ((held += n), true) : false),
    give: (n) => void (held -= n),
    refusal: {
      status: 503,
      message:
        'too many bytes are held for requests without credentials; try again later, or send a bearer token',
      headers: { 'retry-after': RETRY_AFTER_S },
    },
  };
  return {
    /** A new connection: counted, or answered 503 and closed when there are too many. */
    connection(socket: Socket): void {
      if (open >= limits.connections) {
        refused.add(socket);
        socket.end(busyConnection());
        socket.destroySoon();
        return;
      }
      open++;
      socket.once('close', () => open--);
    },
    /** Passes the request on to `next` once its body is in, within the limits that apply to it. */
    admit(req: IncomingMessage, res: ServerResponse, next: (req: IncomingMessage) => void): void {
      // a request parsed on a connection already answered 503: nothing more goes on it
      if (refused.has(req.socket)) return void req.socket.destroy();
      const anonymous = () =>
        limitBody(
          req,
          res,
          Math.min(maxBodyBytes, limits.anonymousBodyBytes),
          next,
          anonymousBudget,
        );
      if (!namesCredentials(req)) return anonymous();
      // the body waits in the socket meanwhile: nothing is read before the check
      credentialed(req).then(
        (valid) => (valid ? limitBody(req, res, maxBodyBytes, next) : anonymous()),
        () => anonymous(),
      );
    },
    /** what is held now (tests and /metrics read it) */
    get stats() {
      return { connections: open, anonymousHeldBytes: held };
    },
  };
};

export type Admission = ReturnType<typeof admission>;
