import type { AuthInfo } from '@modelcontextprotocol/server';
import type { App } from '../../app/app.js';
import { Principal, principalId } from '../../commands/principal.js';

/**
 * Methods anyone may call without credentials: the handshake and discovery (governance.md:
 * `initialize`, `ping` and `tools/list` need none; the other lists and the log level are of the
 * same kind). Everything else — `tools/call`, `resources/read`, `prompts/get`, completions —
 * reads or changes the ledger and needs a bearer token. A list of what is open, so that a method
 * added to MCP later is closed until someone decides otherwise.
 */
const OPEN_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'logging/setLevel',
  'server/discover',
]);

/** Whether one JSON-RPC message needs credentials. Notifications and responses carry no call. */
export const needsCredentials = (message: unknown, requireAll = false): boolean => {
  const method = (message as { method?: unknown } | null)?.method;
  if (typeof method !== 'string') return requireAll;
  if (requireAll) return true;
  if (method.startsWith('notifications/')) return false;
  return !OPEN_METHODS.has(method);
};

/** The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive). */
export const bearerToken = (request: Request): string | undefined => {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header) : null;
  return match?.[1];
};

/** Resolves a token to the principal it was issued for, or undefined when unknown or revoked. */
export type Authenticate = (token: string) => Promise<Principal | undefined>;

// No token we issue is this long; refuse longer ones before hashing anything.
const MAX_TOKEN_LENGTH = 512;

/**
 * Tokens are the kernel's: looked up by hash in the tokens read model (compared in constant
 * time there). A token issued a moment ago by another process (`intentlog token create` while
 * `serve` runs) may not be folded yet, so a miss waits for the read models to reach the log's
 * head and looks once more.
 */
export const kernelAuthenticate =
  (app: App): Authenticate =>
  async (token) => {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const found = await app.tokens.resolve(token, app.clock());
    if (found) return found;
    await app.waitFor(await app.log.head());
    return app.tokens.resolve(token, app.clock());
  };

/** The SDK's AuthInfo carrying our principal; tools read it back with `principalOfAuth`. */
export const authInfoFor = (token: string, principal: Principal): AuthInfo => ({
  token,
  clientId: principalId(principal),
  scopes: [],
  extra: { principal },
});

export const principalOfAuth = (auth: AuthInfo | undefined): Principal | undefined => {
  const parsed = Principal.safeParse(auth?.extra?.principal);
  return parsed.success ? parsed.data : undefined;
};

const REALM = 'intentlog';

/**
 * 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750): no error code when no credentials
 * were sent, `invalid_token` when the token is unknown or revoked. The body is a JSON-RPC error
 * so that an MCP client can show why.
 */
export const unauthorized = (
  kind: 'missing' | 'invalid',
  id: unknown,
  resourceMetadata?: string,
): Response => {
  const message =
    kind === 'missing'
      ? 'this call needs credentials: Authorization: Bearer <token> (intentlog token create)'
      : 'the bearer token is unknown or revoked';
  // resource_metadata (RFC 9728 §5.1): where an MCP client starts its discovery
  const where = resourceMetadata ? `, resource_metadata="${resourceMetadata}"` : '';
  const challenge =
    kind === 'missing'
      ? `Bearer realm="${REALM}"${where}`
      : `Bearer realm="${REALM}"${where}, error="invalid_token", error_description="${message}"`;
  return Response.json(
    { jsonrpc: '2.0', id: jsonRpcId(id), error: { code: -32001, message } },
    { status: 401, headers: { 'WWW-Authenticate': challenge } },
  );
};

export const jsonRpcId = (id: unknown): string | number | null =>
  typeof id === 'string' || typeof id === 'number' ? id : null;
