import { z } from 'zod';
import { defineEvent } from '../catalog/define.js';
import { PrincipalRef } from './index.js';

/**
 * Sign-in for MCP hosts (the OAuth 2.1 authorization server of `intentlog serve`). Every
 * registration, grant, rotation and revocation is an event; codes and refresh tokens are stored
 * only as SHA-256 hashes, and access tokens are the kernel's tokens (`token.issued` v2).
 */
export const OAuthClientRegistered = defineEvent(
  'oauth.client_registered',
  z.object({
    client_id: z.string(),
    client_name: z.string().nullable(),
    redirect_uris: z.array(z.string()),
  }),
);

/** A person approved a client on the consent page: the code it may exchange once. */
export const OAuthCodeIssued = defineEvent(
  'oauth.code_issued',
  z.object({
    grant_id: z.string(),
    client_id: z.string(),
    principal: PrincipalRef,
    code_hash: z.string(),
    /** PKCE S256 challenge (RFC 7636); no other method is accepted */
    code_challenge: z.string(),
    redirect_uri: z.string(),
    /** RFC 8707 resource the client asked for */
    resource: z.string().nullable(),
    expires_at: z.string(),
  }),
);

/** A code exchanged or a refresh token used: the grant's new refresh token and access token. */
export const OAuthGrantRenewed = defineEvent(
  'oauth.grant_renewed',
  z.object({
    grant_id: z.string(),
    refresh_hash: z.string(),
    refresh_expires_at: z.string(),
    access_token_id: z.string(),
  }),
);

export const OAuthGrantRevoked = defineEvent(
  'oauth.grant_revoked',
  z.object({
    grant_id: z.string(),
    /** revoked: asked for (RFC 7009); reuse: a used code or rotated refresh token came back */
    reason: z.enum(['revoked', 'code_reuse', 'refresh_reuse']),
  }),
);

export const oauthEvents = [
  OAuthClientRegistered,
  OAuthCodeIssued,
  OAuthGrantRenewed,
  OAuthGrantRevoked,
];
