import { canonicalJson, sha256Hex } from '../../events/codec.js';
import type { GatePassed } from '../../events/missions/index.js';
import { challengeById, type Challenge, type Desk } from './desk-state.js';
import type { DeskEvent } from './desk-events.js';
import { missionsError } from './errors.js';

/**
 * The owner gate, decided purely. The service makes what needs I/O (a random code, its salt,
 * the file the owner reads) and hands the decider only a salted hash of a fresh code, which the
 * decider records if no challenge for this exact change is pending.
 */

/** Owner codes avoid letters and digits people confuse (I/1, O/0, L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

/** `k7f3-m9qw` → `K7F3M9QW`; undefined when it cannot be a code (costs no attempt). */
export const normalizeOwnerCode = (input: string): string | undefined => {
  const code = input.trim().toUpperCase().replace(/[-\s]/g, '');
  return CODE.test(code) ? code : undefined;
};

export const hashOwnerCode = (salt: string, code: string): string => sha256Hex(`${salt}:${code}`);

/** The fingerprint of the exact change a code approves: a changed body needs a new code. */
export const changeFingerprint = (operation: string, projectId: string, change: unknown): string =>
  `sha256:${sha256Hex(canonicalJson({ operation, project_id: projectId, change }))}`;

export type FreshChallenge = {
  challenge_id: string;
  code_salt: string;
  code_hash: string;
  channel: string;
  expires_at: string;
};

export type GateInput = (
  | { mode: 'ack_legacy'; owner_ack: boolean; reason: string | null }
  | {
      mode: 'nonce';
      /** normalized; null asks for a code */
      owner_code: string | null;
      reason: string | null;
      /** used only when no challenge for this change is pending */
      fresh: FreshChallenge;
    }
) & {
  /**
   * Whether the caller may make this project's owner-gated changes: SYSTEM, or an actor with
   * the missions `owner` role on the project's roster. A code or an ack from anyone else is
   * refused before it is looked at (no attempt used, no challenge issued).
   */
  caller: { actor_id: string; owner: boolean };
};

export type GateDecision =
  { passed: true; gate: GatePassed; events: DeskEvent[] } | { passed: false; events: DeskEvent[] };

/** What `owner_gate_required` and `invalid_owner_code` carry about a challenge. */
export const challengeDetails = (c: Challenge, mode = 'nonce') => ({
  gate: mode,
  status: c.status === 'pending' ? 'pending_owner_code' : c.status,
  challenge_id: c.challenge_id,
  expires_at: c.expires_at,
  attempts_remaining: c.attempts_remaining,
  channel: c.channel,
  fingerprint: c.fingerprint,
});

const live = (c: Challenge | undefined, now: string): Challenge | undefined =>
  c && c.status === 'pending' && c.expires_at > now ? c : undefined;

const legacy = (input: Extract<GateInput, { mode: 'ack_legacy' }>): GateDecision => {
  if (input.owner_ack !== true || !input.reason?.trim())
    throw missionsError('owner_gate_required', 'this change needs owner_ack=true and a reason', {
      gate: 'ack_legacy',
      status: 'pending_owner_confirmation',
      owner_ack_required: true,
    });
  return {
    passed: true,
    gate: { mode: 'ack_legacy', challenge_id: null, reason: input.reason },
    events: [],
  };
};

const ask = (
  desk: Desk,
  input: Extract<GateInput, { mode: 'nonce' }>,
  operation: string,
  fingerprint: string,
  now: string,
): GateDecision => {
  const pending = live(desk.challenges.get(fingerprint), now);
  if (pending)
    throw missionsError(
      'owner_gate_required',
      'ask the owner for the code of this change',
      challengeDetails(pending),
    );
  const { project_id } = desk;
  return {
    passed: false,
    events: [
      {
        type: 'owner_challenge.issued',
        data: { project_id, operation, fingerprint, ...input.fresh },
      },
    ],
  };
};

const present = (
  desk: Desk,
  input: Extract<GateInput, { mode: 'nonce' }>,
  fingerprint: string,
  code: string,
  now: string,
): GateDecision => {
  const challenge = live(desk.challenges.get(fingerprint), now);
  if (!challenge)
    throw missionsError(
      'no_pending_challenge',
      'no live challenge for this exact change (used, expired, cancelled, or the change differs); call again without owner_code',
      { fingerprint },
    );
  const { project_id } = desk;
  const { challenge_id } = challenge;
  if (hashOwnerCode(challenge.code_salt, code) === challenge.code_hash)
    return {
      passed: true,
      gate: { mode: 'nonce', challenge_id, reason: input.reason },
      events: [{ type: 'owner_challenge.consumed', data: { project_id, challenge_id } }],
    };
  const attempts_remaining = challenge.attempts_remaining - 1;
  const rejected: DeskEvent = {
    type: 'owner_challenge.code_rejected',
    data: { project_id, challenge_id, attempts_remaining },
  };
  if (attempts_remaining > 0) return { passed: false, events: [rejected] };
  const cancelled: DeskEvent = {
    type: 'owner_challenge.cancelled',
    data: { project_id, challenge_id, reason: 'attempts_exhausted' },
  };
  return { passed: false, events: [rejected, cancelled] };
};

const requireOwnerRole = (input: GateInput, operation: string): void => {
  if (!input.caller.owner)
    throw missionsError(
      'owner_role_required',
      'only an owner of this project (missions role owner) makes owner-gated changes',
      { actor_id: input.caller.actor_id, required_role: 'owner', operation },
    );
};

/**
 * For a gated change with nothing to approve yet (an accept with nothing proposed): refuses,
 * before the missing subject is named, a call that carries no approval at all (ack_legacy:
 * owner_ack=true and a reason; nonce: a code), as HAI-MCP's gate answers first. No challenge is
 * issued: a code binds an exact change, and there is none.
 */
export const requireApprovalAttempt = (input: GateInput, operation: string): void => {
  requireOwnerRole(input, operation);
  if (input.mode === 'ack_legacy') legacy(input);
  else if (input.owner_code === null)
    throw missionsError(
      'owner_gate_required',
      'nothing is proposed yet: propose a next step (hai_propose_next_step) or pass content, then the owner approves it with a one-time code',
      { gate: 'nonce', status: 'nothing_proposed', operation },
    );
};

/** Decides the gate for one change; throws when nothing is to be written. */
export const decideGate = (
  desk: Desk,
  input: GateInput,
  operation: string,
  fingerprint: string,
  now: string,
): GateDecision => {
  requireOwnerRole(input, operation);
  if (input.mode === 'ack_legacy') return legacy(input);
  if (input.owner_code === null) return ask(desk, input, operation, fingerprint, now);
  return present(desk, input, fingerprint, input.owner_code, now);
};

/**
 * After a gated command: the error to answer when the gate held (a challenge was issued or a
 * code refused, and those events were written), or undefined when the change went through.
 */
export const gateRefusal = (desk: Desk, events: readonly DeskEvent[]) => {
  const gateEvent = events.find(
    (e) => e.type.startsWith('owner_challenge.') && e.type !== 'owner_challenge.consumed',
  );
  if (!gateEvent || events.some((e) => e.type === 'owner_challenge.consumed')) return undefined;
  const challenge = challengeById(desk, (gateEvent.data as { challenge_id: string }).challenge_id);
  if (!challenge) return undefined;
  if (gateEvent.type === 'owner_challenge.issued')
    return missionsError(
      'owner_gate_required',
      'a one-time code went to the owner; ask the owner for it and call again with owner_code',
      challengeDetails(challenge),
    );
  return missionsError(
    'invalid_owner_code',
    challenge.status === 'cancelled'
      ? 'wrong code; three misses cancelled the challenge'
      : 'wrong code',
    challengeDetails(challenge),
  );
};
