import type { HttpRoute } from '../http/handler.js';

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const AUTHORIZE_PATH = '/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const REVOKE_PATH = '/oauth/revoke';

/** The issuer is the server's origin (no path), so its metadata sits at the RFC 8414 root. */
export const issuerOf = (request: Request): string => new URL(request.url).origin;

/**
 * RFC 8414 authorization-server metadata: what an MCP host reads after the protected-resource
 * metadata names this origin. Only what is implemented is advertised: the code flow with PKCE
 * S256 (no `plain`), public clients (no client secrets), refresh tokens, RFC 7591 registration,
 * RFC 7009 revocation, and RFC 9207's `iss` on the redirect.
 */
export const authorizationServerMetadata = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
  token_endpoint: `${issuer}${TOKEN_PATH}`,
  registration_endpoint: `${issuer}${REGISTER_PATH}`,
  revocation_endpoint: `${issuer}${REVOKE_PATH}`,
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  revocation_endpoint_auth_methods_supported: ['none'],
  authorization_response_iss_parameter_supported: true,
});

export const authorizationServerMetadataRoute = (): HttpRoute => async (request) => {
  const { pathname } = new URL(request.url);
  if (request.method !== 'GET' || pathname !== AS_METADATA_PATH) return undefined;
  return Response.json(authorizationServerMetadata(issuerOf(request)), {
    headers: { 'cache-control': 'no-store' },
  });
};

/** RFC 6749 §5.2 error bodies (also RFC 7591 §3.2.2's), never cached. */
export const oauthError = (status: number, error: string, description: string): Response =>
  Response.json(
    { error, error_description: description },
    { status, headers: { 'cache-control': 'no-store', pragma: 'no-cache' } },
  );
