import { jsonRpcError } from './responses.js';

/**
 * How many `--stateful` sessions a process keeps (issue 40). A session holds an MCP server of
 * its own (every tool of its endpoint registered, about 100 KB), so counts bound memory: at
 * these figures the sessions of a process hold some 26 MB at most (docs/hardening.md).
 */
export type SessionLimits = {
  /** sessions open at once, every principal's and the anonymous ones together */
  total: number;
  /** sessions one principal holds; past it, its least recently used one is closed for the new */
  perPrincipal: number;
  /** sessions opened without credentials, open at once */
  anonymous: number;
  /** how long a session opened without credentials lives, unless a request with a token binds it */
  anonymousMs: number;
  /** a session nobody has used for this long is closed (its client is gone without a DELETE) */
  idleMs: number;
};

export const SESSION_LIMITS: SessionLimits = {
  total: 256,
  perPrincipal: 16,
  anonymous: 32,
  anonymousMs: 10_000,
  idleMs: 30 * 60_000,
};

/** How long a client refused for want of room is told to wait before it tries again. */
const RETRY_AFTER_S = 10;

/** 503 at once: no room for another session now; nothing was opened. */
export const noRoom = (why: string, id: string | number | null): Response =>
  jsonRpcError(
    503,
    -32000,
    `${why}; try again later (or end a session with DELETE)`,
    { 'Retry-After': String(RETRY_AFTER_S) },
    id,
  );
