import { describe, it } from 'node:test';
import { deciderSpec } from './decider-spec.js';
import { isDomainError, type ErrorCode } from '../../src/commands/errors.js';
import type { Principal } from '../../src/commands/principal.js';
import { tokenDecider, type TokenEvent } from '../../src/commands/project/token.js';

const given = deciderSpec(tokenDecider);

const system: Principal = { kind: 'system' };
const alice: Principal = { kind: 'actor', actor_id: 'alice' };

const issuedData = {
  token_id: 'tok_1',
  principal: alice,
  token_hash: 'ab'.repeat(32),
  label: 'ci',
  expires_at: null,
  grant_id: null,
};
const issued: TokenEvent = { type: 'token.issued', data: issuedData };
const revoked: TokenEvent = { type: 'token.revoked', data: { token_id: 'tok_1' } };

const issue = (by: Principal) => ({ type: 'IssueToken' as const, data: { ...issuedData, by } });
const revoke = (by: Principal) => ({
  type: 'RevokeToken' as const,
  data: { token_id: 'tok_1', by },
});

const withCode = (code: ErrorCode) => (error: Error) => isDomainError(error) && error.code === code;

describe('token decider', () => {
  it('issues a token: only its hash is in the event', () =>
    given([]).when(issue(system)).then([issued]));

  it('refuses to issue for any caller but the system', () =>
    given([]).when(issue(alice)).thenThrows(withCode('forbidden')));

  it('refuses to reuse a token id', () =>
    given([issued]).when(issue(system)).thenThrows(withCode('invalid_state')));

  it('revokes an active token', () => given([issued]).when(revoke(system)).then([revoked]));

  it('records nothing when revoking a revoked token', () =>
    given([issued, revoked]).when(revoke(system)).thenNothingHappened());

  it('refuses to revoke a token that was never issued', () =>
    given([]).when(revoke(system)).thenThrows(withCode('not_found')));

  it('refuses a revocation by an actor', () =>
    given([issued]).when(revoke(alice)).thenThrows(withCode('forbidden')));
});
