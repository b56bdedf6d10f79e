import { createHash, randomBytes } from 'node:crypto';
import { newId, sha256Hex, streamName, type AppendMeta } from '../../events/index.js';
import { runCommand, runMultiStreamCommand } from '../../commands/handler.js';
import { SYSTEM_PROJECT } from '../../commands/ids.js';
import { principalId, SYSTEM, type Principal } from '../../commands/principal.js';
import { tokenStream } from '../../commands/project/commands.js';
import { newTokenSecret } from '../../commands/project/token.js';
import {
  clientDecider,
  evolveOAuth,
  exchangeCode,
  initialOAuthState,
  invalidGrant,
  issueCode,
  refreshGrant,
  revokeGrant,
  type OAuthClient,
  type OAuthEvent,
  type OAuthState,
  type Renewal,
} from '../../commands/project/oauth-grant.js';
import type { App } from '../app.js';
import { perApp } from '../per-app.js';
import { pendingClients, type ClientMetadata } from './oauth-pending.js';

/** Lifetimes: a code is exchanged at once; an access token an hour; a refresh token 30 days. */
export const CODE_TTL_MS = 2 * 60_000;
export const ACCESS_TTL_MS = 60 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;

const clientStream = (clientId: string) =>
  streamName({ aggregateType: 'oauth.client', projectId: SYSTEM_PROJECT, aggregateId: clientId });
const grantStream = (grantId: string) =>
  streamName({ aggregateType: 'oauth.grant', projectId: SYSTEM_PROJECT, aggregateId: grantId });

const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

/**
 * Codes and refresh tokens name their grant (`<prefix><grant id>.<secret>`), so the token
 * endpoint loads the grant's stream directly, with no lookup model to wait for; only the hash
 * of the whole string is stored.
 */
const secretFor = (prefix: string, grantId: string) =>
  `${prefix}${grantId}.${randomBytes(32).toString('base64url')}`;

const grantOf = (prefix: string, value: string): string | undefined => {
  if (!value.startsWith(prefix) || value.length > 300) return undefined;
  const dot = value.lastIndexOf('.');
  return dot > prefix.length ? value.slice(prefix.length, dot) : undefined;
};

const CODE_PREFIX = 'ilcode_';
const REFRESH_PREFIX = 'ilrefresh_';

export type IssuedTokens = {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
};

const meta = (by: Principal): AppendMeta => ({
  actor_id: principalId(by),
  actor_role: by.kind === 'system' ? 'SYSTEM' : 'NONE',
  correlation_id: null,
  causation_event_id: null,
});

/**
 * The authorization server's state, through the log: client registrations, grants approved by
 * a person, and the tokens they issue (the kernel's tokens, so `intentlog token list` shows and
 * `token revoke` revokes them).
 */
const oauthService = (app: App) => {
  const stream = (name: string) => ({ name, evolve: evolveOAuth, initialState: initialOAuthState });
  const grantOnly = (grantId: string) => [stream(grantStream(grantId))];
  const streamsOf = (grantId: string, tokenId: string) => [
    stream(grantStream(grantId)),
    stream(tokenStream(tokenId)),
  ];

  /** One renewal: decide on [grant, new token] and answer the token response. */
  const renewGrant = async (
    grantId: string,
    clientLabel: string,
    decide: (state: OAuthState, token: OAuthState, renewal: Renewal) => OAuthEvent[][],
    clientId: string,
  ): Promise<IssuedTokens> => {
    const now = app.clock();
    const access = newTokenSecret();
    const refresh = secretFor(REFRESH_PREFIX, grantId);
    const renewal: Renewal = {
      grant_id: grantId,
      client_id: clientId,
      now: now.toISOString(),
      refresh_hash: sha256Hex(refresh),
      refresh_expires_at: later(now, REFRESH_TTL_MS),
      access: {
        token_id: newId('tok'),
        token_hash: sha256Hex(access),
        label: `oauth: ${clientLabel}`,
        expires_at: later(now, ACCESS_TTL_MS),
      },
    };
    const outcome = await runMultiStreamCommand(app.log, {
      streams: streamsOf(grantId, renewal.access.token_id),
      decide: ([grant, token]) => decide(grant!.state, token!.state, renewal),
      meta: meta(SYSTEM),
      respond: ([grant]) => grant!.grant.status,
    });
    // a reuse revoked the grant (its events are appended): the answer is still a refusal
    if (outcome.result === 'revoked')
      throw invalidGrant('this grant was revoked: a used code or refresh token came back');
    await app.waitFor(outcome.position, ['tokens']);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL_MS / 1000,
      refresh_token: refresh,
    };
  };

  /** Revokes a grant (its tokens fold as revoked); with `held`, only if that refresh is current. */
  const revoke = async (grantId: string, by: Principal, held?: string) => {
    const outcome = await runMultiStreamCommand(app.log, {
      streams: grantOnly(grantId),
      decide: ([grant]) => {
        const g = grant!.state.grant;
        return [held === undefined || g.refresh_hash === held ? revokeGrant(g, grantId) : []];
      },
      meta: meta(by),
      respond: () => undefined,
    });
    if (outcome.position > 0) await app.waitFor(outcome.position, ['tokens']);
  };

  const pending = pendingClients(() => app.clock().getTime());

  const logged = async (clientId: string): Promise<OAuthClient | undefined> => {
    const { state } = await app.log.aggregateStream(clientStream(clientId), {
      evolve: clientDecider.evolve,
      initialState: clientDecider.initialState,
    });
    return state.status === 'registered' ? state : undefined;
  };

  /** A registered client: in the log, or still waiting for its first consent. */
  const client = async (clientId: string): Promise<OAuthClient | undefined> => {
    if (clientId.length > 200) return undefined;
    return (await logged(clientId)) ?? pending.get(clientId);
  };

  /** A waiting registration reaches the log with its first approved grant (oauth-pending.ts). */
  const persistClient = async (client_id: string): Promise<void> => {
    const data = pending.metadata(client_id);
    if (!data || (await logged(client_id))) return pending.forget(client_id);
    await runCommand(app.log, {
      decider: clientDecider,
      stream: clientStream(client_id),
      command: { type: 'RegisterClient', data: { client_id, ...data } },
      meta: meta(SYSTEM),
      respond: (state) => state,
    }).catch(async (error: unknown) => {
      // two consents at once: the other one appended it
      if (!(await logged(client_id))) throw error;
    });
    pending.forget(client_id);
  };

  return {
    client,

    /** Open registration (RFC 7591): nothing is appended until a person approves a grant. */
    async registerClient(data: ClientMetadata) {
      const client_id = newId('client');
      pending.add(client_id, data);
      return { client_id, issued_at: Math.floor(app.clock().getTime() / 1000) };
    },

    /** The consent: `by` (the signed-in person) approves `principal` for the client. */
    async approve(request: {
      client_id: string;
      redirect_uri: string;
      code_challenge: string;
      resource: string | null;
      principal: Principal;
      by: Principal;
    }): Promise<string> {
      const { by, ...rest } = request;
      await persistClient(request.client_id);
      const grant_id = newId('grant');
      const code = secretFor(CODE_PREFIX, grant_id);
      const data = {
        ...rest,
        grant_id,
        code_hash: sha256Hex(code),
        expires_at: later(app.clock(), CODE_TTL_MS),
      };
      await runMultiStreamCommand(app.log, {
        streams: grantOnly(grant_id),
        decide: ([grant]) => [issueCode(grant!.state.grant, data)],
        meta: meta(by),
        respond: () => undefined,
      });
      return code;
    },

    async exchangeCode(c: {
      code: string;
      client_id: string;
      redirect_uri: string;
      code_verifier: string;
    }): Promise<IssuedTokens> {
      const grantId = grantOf(CODE_PREFIX, c.code);
      const registered = await client(c.client_id);
      if (!grantId || !registered) throw invalidGrant('unknown authorization code');
      const exchange = {
        code_hash: sha256Hex(c.code),
        verifier_challenge: s256(c.code_verifier),
        redirect_uri: c.redirect_uri,
      };
      return renewGrant(
        grantId,
        registered.client_name ?? c.client_id,
        (grant, token, renewal) =>
          exchangeCode(grant.grant, token.token, { ...renewal, ...exchange }),
        c.client_id,
      );
    },

    async refresh(c: { refresh_token: string; client_id: string }): Promise<IssuedTokens> {
      const grantId = grantOf(REFRESH_PREFIX, c.refresh_token);
      const registered = await client(c.client_id);
      if (!grantId || !registered) throw invalidGrant('unknown refresh token');
      const presented_hash = sha256Hex(c.refresh_token);
      return renewGrant(
        grantId,
        registered.client_name ?? c.client_id,
        (grant, token, renewal) =>
          refreshGrant(grant.grant, token.token, { ...renewal, presented_hash }),
        c.client_id,
      );
    },

    /**
     * RFC 7009: a refresh token revokes its grant and every token the grant issued; an access
     * token revokes that token (a `token.revoked` event: its next call is a 401), the grant
     * refreshing on. Only for the client it was issued to (§2.1); a token nobody issued is no
     * error (§2.2), nor is one issued by `intentlog token create` to no client, which only the
     * CLI revokes.
     */
    async revokeToken(token: string, clientId: string): Promise<'done' | 'other_client'> {
      const refreshOf = grantOf(REFRESH_PREFIX, token);
      const view = refreshOf === undefined ? await app.tokens.find(token) : undefined;
      const grantId = refreshOf ?? view?.grant_id;
      if (!grantId) return 'done';
      const { state } = await app.log.aggregateStream(grantStream(grantId), {
        evolve: evolveOAuth,
        initialState: initialOAuthState,
      });
      const issuedTo = state.grant.code?.client_id;
      if (issuedTo === undefined) return 'done';
      if (issuedTo !== clientId) return 'other_client';
      if (refreshOf !== undefined) await revoke(grantId, SYSTEM, sha256Hex(token));
      else if (view && !view.revoked_at)
        await app.waitFor(await app.tokens.revoke(view.token_id, SYSTEM), ['tokens']);
      return 'done';
    },

    /** `intentlog token revoke` of an OAuth access token: its grant goes with it. */
    revokeGrant: (grantId: string, by: Principal) => revoke(grantId, by),
  };
};

export const oauth = perApp(oauthService);
