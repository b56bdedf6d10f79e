import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import type { Principal } from '../../src/commands/principal.js';
import { signInDecider, type SignInEvent } from '../../src/commands/project/sign-in.js';
import { withCode } from '../governance/fixture.js';

const given = deciderSpec(signInDecider);
const system: Principal = { kind: 'system' };
const alice: Principal = { kind: 'actor', actor_id: 'alice' };

const issuedData = {
  code_id: 'c1',
  code_hash: 'ab'.repeat(32),
  principal: alice,
  expires_at: '2026-12-01T12:10:00.000Z',
};
const issued: SignInEvent = { type: 'sign_in.code_issued', data: issuedData };
const redeemedData = {
  code_id: 'c1',
  session_hash: 'cd'.repeat(32),
  session_expires_at: '2026-12-02T00:00:00.000Z',
};
const redeemed: SignInEvent = { type: 'sign_in.code_redeemed', data: redeemedData };
const redeem = (now: string) => ({ type: 'RedeemCode' as const, data: { ...redeemedData, now } });

describe('sign-in decider', () => {
  it('issues a code for an actor: only its hash is in the event', () =>
    given([])
      .when({ type: 'IssueCode', data: { ...issuedData, by: system } })
      .then([issued]));

  it('only SYSTEM issues codes', () =>
    given([])
      .when({ type: 'IssueCode', data: { ...issuedData, by: alice } })
      .thenThrows(withCode('forbidden')));

  it('redeems a live code once', () =>
    given([issued]).when(redeem('2026-12-01T12:05:00.000Z')).then([redeemed]));

  it('refuses a used code', () =>
    given([issued, redeemed])
      .when(redeem('2026-12-01T12:05:00.000Z'))
      .thenThrows(withCode('invalid_state')));

  it('refuses an expired code', () =>
    given([issued]).when(redeem('2026-12-01T12:10:00.000Z')).thenThrows(withCode('invalid_state')));

  it('refuses an unknown code', () =>
    given([]).when(redeem('2026-12-01T12:05:00.000Z')).thenThrows(withCode('not_found')));

  it('signs out a session once; again is a no-op', () => {
    const out: SignInEvent = { type: 'sign_in.signed_out', data: { code_id: 'c1' } };
    given([issued, redeemed])
      .when({ type: 'SignOut', data: { code_id: 'c1' } })
      .then([out]);
    return given([issued, redeemed, out])
      .when({ type: 'SignOut', data: { code_id: 'c1' } })
      .then([]);
  });
});
