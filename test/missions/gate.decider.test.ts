import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { sha256Hex } from '../../src/events/codec.js';
import { deskDecider } from '../../src/commands/missions/desk.js';
import type { DeskEvent } from '../../src/commands/missions/desk-events.js';
import {
  changeFingerprint,
  normalizeOwnerCode,
  type GateInput,
} from '../../src/commands/missions/owner-gate.js';
import { CODE, OWNER, P, T0, askGate, at, fresh, presentGate, withCode } from './fixture.js';

const given = deciderSpec(deskDecider);

const proposed: DeskEvent = {
  type: 'next_step.proposed',
  data: {
    project_id: P,
    content: 'write csv.ts',
    content_hash: `sha256:${sha256Hex('write csv.ts')}`,
    proposed_at: T0,
  },
};
const fingerprint = changeFingerprint('hai_accept_next_step', P, {
  content_hash: proposed.data.content_hash,
});
const accept = (gate: GateInput, minutes = 1, content: string | null = null) => ({
  type: 'AcceptNextStep' as const,
  data: { project_id: P, now: at(minutes), content, gate },
});
const issued: DeskEvent = {
  type: 'owner_challenge.issued',
  data: { project_id: P, operation: 'hai_accept_next_step', fingerprint, ...fresh() },
};
const rejected = (attempts_remaining: number): DeskEvent => ({
  type: 'owner_challenge.code_rejected',
  data: { project_id: P, challenge_id: 'CH1', attempts_remaining },
});
const consumed: DeskEvent = {
  type: 'owner_challenge.consumed',
  data: { project_id: P, challenge_id: 'CH1' },
};
const accepted: DeskEvent = {
  type: 'next_step.accepted',
  data: {
    project_id: P,
    content: 'write csv.ts',
    content_hash: proposed.data.content_hash,
    gate: { mode: 'nonce', challenge_id: 'CH1', reason: 'scope grew' },
    accepted_at: at(2),
  },
};

describe('owner gate (nonce)', () => {
  it('issues a challenge for the exact change when asked without a code', () =>
    given([proposed]).when(accept(askGate())).then([issued]));

  it('answers the same pending challenge when asked again', () =>
    given([proposed, issued])
      .when(accept(askGate('CH2')))
      .thenThrows(
        withCode(
          'owner_gate_required',
          (d) =>
            d.challenge_id === 'CH1' &&
            d.status === 'pending_owner_code' &&
            d.attempts_remaining === 3 &&
            d.fingerprint === fingerprint,
        ),
      ));

  it('passes the right code once and records its consumption', () =>
    given([proposed, issued])
      .when(accept(presentGate(CODE), 2))
      .then([consumed, accepted]));

  it('refuses a reused code (single use)', () =>
    given([proposed, issued, consumed, accepted])
      .when(accept(presentGate(CODE), 3, 'write csv.ts'))
      .thenThrows(withCode('no_pending_challenge')));

  it('refuses a code after its expiry', () =>
    given([proposed, issued])
      .when(accept(presentGate(CODE), 11))
      .thenThrows(withCode('no_pending_challenge')));

  it('refuses a code for a changed body: its fingerprint has no challenge', () =>
    given([proposed, issued])
      .when(accept(presentGate(CODE), 2, 'write pdf.ts'))
      .thenThrows(withCode('no_pending_challenge')));

  it('counts a wrong code as an attempt', () =>
    given([proposed, issued])
      .when(accept(presentGate('AAAAAAAA'), 2))
      .then([rejected(2)]));

  it('cancels the challenge after the third miss', () =>
    given([proposed, issued, rejected(2), rejected(1)])
      .when(accept(presentGate('AAAAAAAA'), 2))
      .then([
        rejected(0),
        {
          type: 'owner_challenge.cancelled',
          data: { project_id: P, challenge_id: 'CH1', reason: 'attempts_exhausted' },
        },
      ]));

  it('refuses even the right code once cancelled', () =>
    given([
      proposed,
      issued,
      rejected(2),
      rejected(1),
      rejected(0),
      {
        type: 'owner_challenge.cancelled',
        data: { project_id: P, challenge_id: 'CH1', reason: 'attempts_exhausted' },
      },
    ])
      .when(accept(presentGate(CODE), 2))
      .thenThrows(withCode('no_pending_challenge')));

  // HAI-MCP's order (issue 42): the gate answers first, and issues nothing (no change to bind)
  it('with nothing proposed and no code, the gate answers first: owner_gate_required', () =>
    given([])
      .when(accept(askGate()))
      .thenThrows(
        withCode(
          'owner_gate_required',
          (d) => d.gate === 'nonce' && d.status === 'nothing_proposed',
        ),
      ));

  it('with nothing proposed and a code, answers no_proposal', () =>
    given([])
      .when(accept(presentGate(CODE), 2))
      .thenThrows(withCode('no_proposal')));

  it('reads malformed codes as undefined (they cost no attempt)', () => {
    assert.equal(normalizeOwnerCode('k7f3-m9qw'), CODE);
    for (const bad of ['', 'K7F3M9Q', 'K7F3M9QW1', 'K7F3M9Q0', 'K7F3 M9QI', '../../etc'])
      assert.equal(normalizeOwnerCode(bad), undefined, bad);
  });
});

describe('owner gate (ack_legacy)', () => {
  it('with nothing proposed and no owner_ack, the gate answers before no_proposal', () =>
    given([])
      .when(accept({ mode: 'ack_legacy', owner_ack: false, reason: null, caller: OWNER }))
      .thenThrows(withCode('owner_gate_required', (d) => d.gate === 'ack_legacy')));

  it('with nothing proposed and owner_ack=true and a reason, answers no_proposal', () =>
    given([])
      .when(accept({ mode: 'ack_legacy', owner_ack: true, reason: 'ok', caller: OWNER }))
      .thenThrows(withCode('no_proposal')));

  it('needs owner_ack=true and a reason', () =>
    given([proposed])
      .when(accept({ mode: 'ack_legacy', owner_ack: false, reason: 'ok', caller: OWNER }))
      .thenThrows(withCode('owner_gate_required', (d) => d.gate === 'ack_legacy')));

  it('passes with owner_ack=true and a reason, and says so on the event', () =>
    given([proposed])
      .when(
        accept({ mode: 'ack_legacy', owner_ack: true, reason: 'looks right', caller: OWNER }, 2),
      )
      .then([
        {
          ...accepted,
          data: {
            ...accepted.data,
            gate: { mode: 'ack_legacy', challenge_id: null, reason: 'looks right' },
          },
        } as DeskEvent,
      ]));
});

describe('owner gate: the missions owner role', () => {
  const stranger = { actor_id: 'eve', owner: false };
  it('refuses a caller without the role before issuing a challenge (no code goes out)', () =>
    given([proposed])
      .when(accept({ ...askGate(), caller: stranger }))
      .thenThrows(
        withCode('owner_role_required', (d) => d.actor_id === 'eve' && d.required_role === 'owner'),
      ));

  it('refuses the right code from a caller without the role, and uses no attempt', () =>
    given([proposed, issued])
      .when(accept({ ...presentGate(CODE), caller: stranger }, 2))
      .thenThrows(withCode('owner_role_required')));

  it('refuses owner_ack from a caller without the role (ack_legacy)', () =>
    given([proposed])
      .when(accept({ mode: 'ack_legacy', owner_ack: true, reason: 'ok', caller: stranger }))
      .thenThrows(withCode('owner_role_required')));
});
