import { randomUUID } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';
import { principalId } from '../../commands/principal.js';
import { resourceMetadataUrl } from '../oauth/resource-metadata.js';
import { jsonRpcId, principalOfAuth, unauthorized } from './auth.js';
import { jsonRpcError } from './responses.js';
import { noRoom, SESSION_LIMITS, type SessionLimits } from './session-limits.js';

/** What opens a session's server: one endpoint's factory (`/mcp`, `/mcp/<surface>`). */
type Factory = () => McpServer;

type Session = {
  factory: Factory;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** the principal the session belongs to; undefined while it was opened without credentials */
  owner: string | undefined;
  seen: number;
  /** ends a session still without an owner */
  expiry?: NodeJS.Timeout;
};

const ownerOf = (auth: AuthInfo | undefined): string | undefined => {
  const principal = principalOfAuth(auth);
  return principal && principalId(principal);
};

const idOf = (body: unknown) => jsonRpcId((body as { id?: unknown } | null)?.id);

// Unknown, ended, another endpoint's or another principal's: one answer, which says nothing of
// whether the id exists.
const notFound = (body: unknown) => jsonRpcError(404, -32001, 'Session not found', {}, idOf(body));

/**
 * `--stateful`: the 2025 sessionful Streamable HTTP binding. `initialize` opens a session
 * (`Mcp-Session-Id`), later requests name it, `DELETE` ends it, `GET` opens its SSE stream.
 * Sessions live in this process's memory only, within `limits` (session-limits.ts).
 *
 * A session belongs to the principal that opened it (issue 40): every request on it, POST, GET
 * and DELETE, carries that principal's token, or gets 401 (none sent) or 404 (another's). One
 * opened without credentials (discovery is open, docs/decisions.md) is bound to the principal of
 * its first request with a token, and ends after `anonymousMs` unless bound; until then it
 * serves what needs no credentials, and no SSE stream.
 */
export const sessionStore = (limits: SessionLimits = SESSION_LIMITS) => {
  const sessions = new Map<string, Session>();
  const owned = new Map<string, Set<string>>();
  let anonymous = 0;

  /** Forgets a session (its transport closed it, or `end` does). */
  const forget = (id: string): Session | undefined => {
    const session = sessions.get(id);
    if (!session) return undefined;
    sessions.delete(id);
    clearTimeout(session.expiry);
    if (session.owner === undefined) anonymous--;
    else {
      const ids = owned.get(session.owner)!;
      ids.delete(id);
      if (ids.size === 0) owned.delete(session.owner);
    }
    return session;
  };
  const end = (id: string) => void forget(id)?.server.close();

  /** Room for one more session of `owner`: its least recently used one goes past its limit. */
  const makeRoomFor = (owner: string) => {
    const ids = [...(owned.get(owner) ?? [])];
    if (ids.length < limits.perPrincipal) return;
    const oldest = ids.reduce((a, b) => (sessions.get(a)!.seen <= sessions.get(b)!.seen ? a : b));
    end(oldest);
  };

  const bind = (id: string, session: Session, owner: string) => {
    if (session.owner === undefined) {
      anonymous--;
      clearTimeout(session.expiry);
    }
    makeRoomFor(owner);
    session.owner = owner;
    owned.set(owner, (owned.get(owner) ?? new Set()).add(id));
  };

  const open = async (factory: Factory, request: Request, body: unknown, auth?: AuthInfo) => {
    const owner = ownerOf(auth);
    if (sessions.size >= limits.total) return noRoom('too many sessions are open', idOf(body));
    if (owner === undefined && anonymous >= limits.anonymous)
      return noRoom('too many sessions are open without credentials', idOf(body));
    const id = randomUUID();
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessionclosed: (closed) => void forget(closed),
    });
    // counted before the first await, so that concurrent opens cannot overshoot the limits:
    // as anonymous, then bound at once when the initialize carried a token
    const session: Session = { factory, server, transport, owner: undefined, seen: Date.now() };
    sessions.set(id, session);
    anonymous++;
    if (owner === undefined)
      (session.expiry = setTimeout(() => end(id), limits.anonymousMs)).unref();
    else bind(id, session, owner);
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: body, authInfo: auth });
      if (transport.sessionId === undefined) end(id); // the initialize was refused: no session
      return response;
    } catch (error) {
      end(id);
      throw error;
    }
  };

  /** Whether this request may use this session; binds an anonymous one to its first principal. */
  const refusal = (
    id: string,
    session: Session,
    request: Request,
    body: unknown,
    auth?: AuthInfo,
  ) => {
    const who = ownerOf(auth);
    if (session.owner !== undefined) {
      if (who === undefined)
        return unauthorized('missing', idOf(body), resourceMetadataUrl(request));
      return who === session.owner ? undefined : notFound(body);
    }
    if (who !== undefined) return void bind(id, session, who);
    // an open SSE stream is a connection held: not for a session without credentials
    if (request.method === 'GET')
      return unauthorized('missing', idOf(body), resourceMetadataUrl(request));
    return undefined;
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) if (now - s.seen > limits.idleMs) end(id);
    },
    Math.min(60_000, limits.idleMs),
  );
  sweep.unref();

  return {
    /**
     * A request to `factory`'s endpoint, with the credentials it carried (already checked):
     * `initialize` opens a session, anything else names one.
     */
    async handle(factory: Factory, request: Request, body?: unknown, auth?: AuthInfo) {
      const id = request.headers.get('mcp-session-id');
      if (id === null) {
        if (request.method === 'POST' && isInitializeRequest(body))
          return open(factory, request, body, auth);
        return jsonRpcError(400, -32000, 'Bad Request: send Mcp-Session-Id (from initialize)');
      }
      const session = sessions.get(id);
      if (!session || session.factory !== factory) return notFound(body);
      const refused = refusal(id, session, request, body, auth);
      if (refused) return refused;
      session.seen = Date.now();
      return session.transport.handleRequest(request, { parsedBody: body, authInfo: auth });
    },
    get size() {
      return sessions.size;
    },
    async close(): Promise<void> {
      clearInterval(sweep);
      const all = [...sessions.keys()].map((id) => forget(id)!);
      await Promise.allSettled(all.map((s) => s.server.close()));
    },
  };
};

export type SessionStore = ReturnType<typeof sessionStore>;
