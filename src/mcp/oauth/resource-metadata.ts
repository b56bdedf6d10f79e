import type { HttpRoute } from '../http/handler.js';
import { MCP_PATH } from '../http/handler.js';

/** RFC 9728's well-known prefix; the resource's path follows it (`…/mcp`, `…/mcp/<surface>`). */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** Where a client finds the metadata of the MCP endpoint a request was sent to. */
export const resourceMetadataUrl = (request: Request): string => {
  const url = new URL(request.url);
  return `${url.origin}${RESOURCE_METADATA_PATH}${url.pathname}`;
};

/**
 * `GET /.well-known/oauth-protected-resource[/mcp[/<surface>]]` (RFC 9728, as the MCP
 * authorization spec asks): names the resource, how to send a token, and the authorization
 * server — this same origin (metadata.ts) when sign-in is served, none otherwise (tokens then
 * come from `intentlog token create` only).
 */
export const resourceMetadataRoute =
  (signIn = true): HttpRoute =>
  async (request) => {
    const { pathname, origin } = new URL(request.url);
    if (request.method !== 'GET' || !pathname.startsWith(RESOURCE_METADATA_PATH)) return undefined;
    const rest = pathname.slice(RESOURCE_METADATA_PATH.length);
    if (rest !== '' && rest !== MCP_PATH && !rest.startsWith(`${MCP_PATH}/`)) return undefined;
    return Response.json(
      {
        resource: `${origin}${rest || MCP_PATH}`,
        authorization_servers: signIn ? [origin] : [],
        bearer_methods_supported: ['header'],
        resource_name: 'intentlog',
      },
      { headers: { 'cache-control': 'no-store' } },
    );
  };
