import { randomBytes } from 'node:crypto';
import type { Decider } from '@event-driven-io/emmett';
import { sha256Hex, type EventOf } from '../../events/index.js';
import type { TokenIssued, TokenRevoked } from '../../events/project/index.js';
import { forbidden, invalidState, notFound } from '../errors.js';
import type { Principal } from '../principal.js';

/**
 * Access tokens: issued and revoked by events in the system project. Only the SHA-256 of a
 * token is ever stored; the token itself is shown once, to whoever created it.
 */
export type TokenEvent = EventOf<typeof TokenIssued> | EventOf<typeof TokenRevoked>;

export type Token = { status: 'none' | 'active' | 'revoked'; principal?: Principal };

export type TokenCommand =
  | {
      type: 'IssueToken';
      data: {
        token_id: string;
        principal: Principal;
        token_hash: string;
        label: string | null;
        expires_at: string | null;
        grant_id: string | null;
        by: Principal;
      };
    }
  | { type: 'RevokeToken'; data: { token_id: string; by: Principal } };

/** 256 random bits, URL-safe; the prefix lets secret scanners recognise a leaked token. */
export const newTokenSecret = (): string => `il_${randomBytes(32).toString('base64url')}`;

export const tokenHash = (token: string): string => sha256Hex(token);

const requireSystem = (by: Principal): void => {
  if (by.kind !== 'system') throw forbidden('only the SYSTEM principal manages tokens');
};

export const tokenDecider: Decider<Token, TokenCommand, TokenEvent> = {
  decide: (command, state) => {
    requireSystem(command.data.by);
    if (command.type === 'IssueToken') {
      if (state.status !== 'none') throw invalidState('token id already used');
      const { by: _by, ...data } = command.data;
      return [{ type: 'token.issued', data }];
    }
    if (state.status === 'none') throw notFound('no such token');
    if (state.status === 'revoked') return [];
    return [{ type: 'token.revoked', data: { token_id: command.data.token_id } }];
  },
  evolve: (state, event) =>
    event.type === 'token.issued'
      ? { status: 'active', principal: event.data.principal }
      : { ...state, status: 'revoked' },
  initialState: () => ({ status: 'none' }),
};
