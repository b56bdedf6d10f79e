import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/index.js';
import type {
  SignInCodeIssued,
  SignInCodeRedeemed,
  SignInSignedOut,
} from '../../events/project/sign-in.js';
import { forbidden, invalidState, notFound } from '../errors.js';
import type { Principal } from '../principal.js';

export type SignInEvent =
  | EventOf<typeof SignInCodeIssued>
  | EventOf<typeof SignInCodeRedeemed>
  | EventOf<typeof SignInSignedOut>;

export type SignIn = {
  status: 'none' | 'issued' | 'redeemed' | 'signed_out';
  principal?: Principal;
  expires_at?: string;
};

/** `now` and the hashes come in the command: the decider reads no clock and draws no secret. */
export type SignInCommand =
  | {
      type: 'IssueCode';
      data: {
        code_id: string;
        code_hash: string;
        principal: Principal;
        expires_at: string;
        by: Principal;
      };
    }
  | {
      type: 'RedeemCode';
      data: { code_id: string; session_hash: string; session_expires_at: string; now: string };
    }
  | { type: 'SignOut'; data: { code_id: string } };

const issue = (command: Extract<SignInCommand, { type: 'IssueCode' }>, state: SignIn) => {
  const { by, ...data } = command.data;
  // only the local user (who holds the data dir) hands out sign-in codes
  if (by.kind !== 'system') throw forbidden('only the SYSTEM principal issues sign-in codes');
  if (state.status !== 'none') throw invalidState('sign-in code id already used');
  return [{ type: 'sign_in.code_issued' as const, data }];
};

const redeem = (command: Extract<SignInCommand, { type: 'RedeemCode' }>, state: SignIn) => {
  const { now, ...data } = command.data;
  if (state.status === 'none') throw notFound('no such sign-in code');
  if (state.status !== 'issued') throw invalidState('this sign-in code was already used');
  if (state.expires_at! <= now) throw invalidState('this sign-in code has expired');
  return [{ type: 'sign_in.code_redeemed' as const, data }];
};

export const signInDecider: Decider<SignIn, SignInCommand, SignInEvent> = {
  decide: (command, state) => {
    switch (command.type) {
      case 'IssueCode':
        return issue(command, state);
      case 'RedeemCode':
        return redeem(command, state);
      case 'SignOut':
        return state.status === 'redeemed'
          ? [{ type: 'sign_in.signed_out', data: { code_id: command.data.code_id } }]
          : [];
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'sign_in.code_issued':
        return {
          status: 'issued',
          principal: event.data.principal,
          expires_at: event.data.expires_at,
        };
      case 'sign_in.code_redeemed':
        return { ...state, status: 'redeemed', expires_at: event.data.session_expires_at };
      case 'sign_in.signed_out':
        return { ...state, status: 'signed_out' };
    }
  },
  initialState: () => ({ status: 'none' }),
};
