import type { IncomingMessage } from 'node:http';

/**
 * The address a request came from, as the socket saw it, carried to the web-standard handlers
 * in a header of our own: set on every request (whatever a client sent under that name), so it
 * cannot be forged. Behind a reverse proxy it is the proxy's.
 */
const PEER_HEADER = 'x-intentlog-peer';

export const markPeer = (req: IncomingMessage): void => {
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? 'unknown';
};

export const peerOf = (request: Request): string => request.headers.get(PEER_HEADER) ?? 'unknown';
