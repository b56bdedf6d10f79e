import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import type {
  OAuthClientRegistered,
  OAuthCodeIssued,
  OAuthGrantRenewed,
  OAuthGrantRevoked,
} from '../../events/project/oauth.js';
import { domainError, invalidState } from '../errors.js';
import { tokenDecider, type Token, type TokenEvent } from './token.js';

/**
 * OAuth grants (RFC 6749 with PKCE, as OAuth 2.1 and the MCP authorization spec profile it).
 * One stream per grant: the approved code, then one refresh token at a time. Deciders are pure:
 * hashes, ids, secrets and `now` come in the command. A refusal is the RFC's `invalid_grant`.
 */
export type ClientEvent = EventOf<typeof OAuthClientRegistered>;
export type GrantEvent =
  | EventOf<typeof OAuthCodeIssued>
  | EventOf<typeof OAuthGrantRenewed>
  | EventOf<typeof OAuthGrantRevoked>;

export type OAuthClient = {
  status: 'none' | 'registered';
  client_name: string | null;
  redirect_uris: string[];
};

export const clientDecider: Decider<
  OAuthClient,
  { type: 'RegisterClient'; data: ClientEvent['data'] },
  ClientEvent
> = {
  decide: (command, state) => {
    if (state.status !== 'none') throw invalidState('client id already used');
    return [{ type: 'oauth.client_registered', data: command.data }];
  },
  evolve: (_state, event) => ({
    status: 'registered',
    client_name: event.data.client_name,
    redirect_uris: event.data.redirect_uris,
  }),
  initialState: () => ({ status: 'none', client_name: null, redirect_uris: [] }),
};

export type Grant = {
  status: 'none' | 'code_issued' | 'active' | 'revoked';
  code?: EventOf<typeof OAuthCodeIssued>['data'];
  refresh_hash?: string;
  refresh_expires_at?: string;
  /** refresh tokens rotated away: one coming back means it leaked (RFC 9700 §4.14.2) */
  used_refresh: string[];
};

/** A grant stream folds grant events; a token stream folds token events; one state type. */
export type OAuthState = { grant: Grant; token: Token };
export type OAuthEvent = GrantEvent | TokenEvent;

export const initialOAuthState = (): OAuthState => ({
  grant: { status: 'none', used_refresh: [] },
  token: tokenDecider.initialState(),
});

const evolveGrant = (grant: Grant, event: GrantEvent): Grant => {
  switch (event.type) {
    case 'oauth.code_issued':
      return { ...grant, status: 'code_issued', code: event.data };
    case 'oauth.grant_renewed':
      return {
        ...grant,
        status: grant.status === 'revoked' ? 'revoked' : 'active',
        used_refresh: grant.refresh_hash ? [...grant.used_refresh, grant.refresh_hash] : [],
        refresh_hash: event.data.refresh_hash,
        refresh_expires_at: event.data.refresh_expires_at,
      };
    case 'oauth.grant_revoked':
      return { ...grant, status: 'revoked' };
  }
};

export const evolveOAuth = (state: OAuthState, event: OAuthEvent): OAuthState =>
  event.type === 'token.issued' || event.type === 'token.revoked'
    ? { ...state, token: tokenDecider.evolve(state.token, event) }
    : { ...state, grant: evolveGrant(state.grant, event) };

export const invalidGrant = (message: string) => domainError('invalid_grant', message);

export const issueCode = (grant: Grant, data: EventOf<typeof OAuthCodeIssued>['data']) => {
  if (grant.status !== 'none') throw invalidState('grant id already used');
  return [{ type: 'oauth.code_issued' as const, data }];
};

/** The access token a renewal issues, as `token.issued` v2 data on its own token stream. */
export type AccessToken = {
  token_id: string;
  token_hash: string;
  label: string;
  expires_at: string;
};

export type Renewal = {
  grant_id: string;
  client_id: string;
  now: string;
  refresh_hash: string;
  refresh_expires_at: string;
  access: AccessToken;
};

const renew = (grant: Grant, renewal: Renewal, token: Token): OAuthEvent[][] => {
  if (token.status !== 'none') throw invalidState('token id already used');
  const { grant_id, refresh_hash, refresh_expires_at, access } = renewal;
  return [
    [
      {
        type: 'oauth.grant_renewed',
        data: { grant_id, refresh_hash, refresh_expires_at, access_token_id: access.token_id },
      },
    ],
    [
      {
        type: 'token.issued',
        data: { ...access, principal: grant.code!.principal, grant_id },
      },
    ],
  ];
};

const revokedFor = (grant_id: string, reason: 'code_reuse' | 'refresh_reuse'): OAuthEvent[][] => [
  [{ type: 'oauth.grant_revoked', data: { grant_id, reason } }],
  [],
];

/**
 * The code exchange (RFC 6749 §4.1.3, RFC 7636 §4.6): the code's hash, client, redirect URI and
 * PKCE verifier must all match, before the code expires, once. A code presented a second time
 * revokes the grant (RFC 6749 §4.1.2: tokens issued from it should be revoked).
 */
export const exchangeCode = (
  grant: Grant,
  token: Token,
  c: Renewal & {
    code_hash: string;
    verifier_challenge: string;
    redirect_uri: string;
  },
): OAuthEvent[][] => {
  const code = grant.code;
  if (!code || code.code_hash !== c.code_hash) throw invalidGrant('unknown authorization code');
  if (code.client_id !== c.client_id) throw invalidGrant('the code was issued to another client');
  if (grant.status === 'revoked') throw invalidGrant('this grant was revoked');
  if (grant.status === 'active') return revokedFor(c.grant_id, 'code_reuse');
  if (code.expires_at <= c.now) throw invalidGrant('the authorization code has expired');
  if (code.redirect_uri !== c.redirect_uri)
    throw invalidGrant('redirect_uri differs from the authorization request');
  if (code.code_challenge !== c.verifier_challenge)
    throw invalidGrant('code_verifier does not match the code_challenge (PKCE S256)');
  return renew(grant, c, token);
};

/**
 * The refresh grant (RFC 6749 §6) with rotation: every use answers a new refresh token and the
 * old one stops working. An old one coming back revokes the grant: one of the two holders is
 * not the client.
 */
export const refreshGrant = (
  grant: Grant,
  token: Token,
  c: Renewal & { presented_hash: string },
): OAuthEvent[][] => {
  if (grant.status !== 'active' && grant.status !== 'revoked')
    throw invalidGrant('unknown refresh token');
  if (grant.code!.client_id !== c.client_id)
    throw invalidGrant('the refresh token was issued to another client');
  if (grant.status === 'revoked') throw invalidGrant('this grant was revoked');
  if (grant.used_refresh.includes(c.presented_hash)) return revokedFor(c.grant_id, 'refresh_reuse');
  if (grant.refresh_hash !== c.presented_hash) throw invalidGrant('unknown refresh token');
  if (grant.refresh_expires_at! <= c.now) throw invalidGrant('the refresh token has expired');
  return renew(grant, c, token);
};

/** RFC 7009: revoking a grant's refresh token revokes the grant; twice is no error. */
export const revokeGrant = (grant: Grant, grant_id: string): GrantEvent[] =>
  grant.status === 'active' || grant.status === 'code_issued'
    ? [{ type: 'oauth.grant_revoked', data: { grant_id, reason: 'revoked' } }]
    : [];
