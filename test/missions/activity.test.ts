import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { classifyActivity, type Activity } from '../../src/commands/missions/activity.js';
import { deskDecider } from '../../src/commands/missions/desk.js';
import { validLease } from '../../src/commands/missions/decide-lease.js';
import { evolveDesk, initialDesk, type Lease } from '../../src/commands/missions/desk-state.js';
import type { DeskEvent } from '../../src/commands/missions/desk-events.js';
import { contractDiff, applyChanges, contractHash } from '../../src/commands/missions/contract.js';
import { changeFingerprint } from '../../src/commands/missions/owner-gate.js';
import { P, at, contract, fresh, granted, opened, presentGate, withCode } from './fixture.js';

const lease = { ...(granted('S1').data as Omit<Lease, 'revoked'>), revoked: null } as Lease;
const activity = (a: Partial<Activity>): Activity => ({
  activity_step: 'write the csv writer',
  criterion_id: 'C1',
  affected_paths: [{ path: 'src/export/csv.ts', inside_root: true }],
  activity_kind: 'edit',
  declares_blocker: false,
  ...a,
});
const classify = (a: Partial<Activity>) =>
  classifyActivity(contract, lease, activity(a)).classification;

describe('hai_check_activity drift classes', () => {
  it('in_scope: a leased criterion on allowed paths', () => assert.equal(classify({}), 'in_scope'));
  it('blocker: declared', () => assert.equal(classify({ declares_blocker: true }), 'blocker'));
  it('park_candidate: the step matches a non-goal', () =>
    assert.equal(classify({ activity_step: 'start the PDF export too' }), 'park_candidate'));
  it('drift: a path outside allowed_paths', () =>
    assert.equal(
      classify({ affected_paths: [{ path: 'src/billing/x.ts', inside_root: true }] }),
      'drift',
    ));
  it('drift: a path outside the root', () =>
    assert.equal(
      classify({ affected_paths: [{ path: '../elsewhere', inside_root: false }] }),
      'drift',
    ));
  it('drift: a sensitive action the lease was not granted', () =>
    assert.equal(classify({ activity_kind: 'push' }), 'drift'));
  // issue 30 #6: HAI-MCP's sensitive actions include secrets, force_push and rm_rf
  for (const kind of ['secrets', 'force_push', 'rm_rf', 'commit', 'merge', 'release'])
    it(`drift: the sensitive action ${kind}, not granted`, () =>
      assert.equal(
        classify({ activity_step: 'exfiltrate secrets', activity_kind: kind }),
        'drift',
      ));
  it('drift outranks a declared blocker', () =>
    assert.equal(
      classify({ declares_blocker: true, affected_paths: [{ path: 'etc/x', inside_root: true }] }),
      'drift',
    ));
  it('unclear: no criterion', () => assert.equal(classify({ criterion_id: null }), 'unclear'));
  it('unclear: a criterion the lease does not hold', () =>
    assert.equal(classify({ criterion_id: 'C2' }), 'unclear'));
  it('allowed_paths match whole segments, not string prefixes', () =>
    assert.equal(
      classify({ affected_paths: [{ path: 'src/exporter/x.ts', inside_root: true }] }),
      'drift',
    ));
});

describe('lease validity', () => {
  const desk = [opened, granted('S1')].reduce(evolveDesk, initialDesk());
  it('is valid within its time', () =>
    assert.equal(validLease(desk, 'S1', at(5)).session_id, 'S1'));
  it('expires: lease_expired with required_action pause', () =>
    assert.throws(
      () => validLease(desk, 'S1', at(30)),
      withCode('lease_expired', (d) => d.required_action === 'pause'),
    ));
  it('unknown sessions are invalid_args, unclear: pause (HAI-MCP: "session not found")', () =>
    assert.throws(
      () => validLease(desk, 'S9', at(5)),
      withCode('invalid_args', (d) => d.required_action === 'pause'),
    ));
});

describe('recontract', () => {
  const given = deciderSpec(deskDecider);
  const changes = { constraints: { max_parallel_sessions: 3 } };
  const after = applyChanges(contract, changes);
  const diff = contractDiff(contract, after);
  const fingerprint = changeFingerprint('hai_recontract', P, {
    mission_id: 'M1',
    from_version: 1,
    diff,
    mode: 'normal',
  });
  const issued: DeskEvent = {
    type: 'owner_challenge.issued',
    data: { project_id: P, operation: 'hai_recontract', fingerprint, ...fresh() },
  };
  const recontract = (gate = presentGate('K7F3M9QW')) => ({
    type: 'Recontract' as const,
    data: {
      project_id: P,
      now: at(2),
      mission_id: 'M1',
      contract_version: 1,
      changes,
      reason: 'more hands',
      mode: 'normal' as const,
      break_glass_marker: false,
      gate,
    },
  });

  it('writes version 2 with its diff behind the code, and revokes every live lease', () =>
    given([opened, granted('S1'), issued])
      .when(recontract())
      .then([
        { type: 'owner_challenge.consumed', data: { project_id: P, challenge_id: 'CH1' } },
        {
          type: 'mission.recontracted',
          data: {
            project_id: P,
            mission_id: 'M1',
            from_version: 1,
            contract_version: 2,
            contract: after,
            contract_hash: contractHash(after),
            diff,
            reason: 'more hands',
            mode: 'normal',
            gate: { mode: 'nonce', challenge_id: 'CH1', reason: 'scope grew' },
            recontracted_at: at(2),
          },
        },
        {
          type: 'lease.revoked',
          data: { project_id: P, session_ids: ['S1'], reason: 'recontract' },
        },
      ]));

  it('refuses break_glass without its marker: the owner gate (HAI-MCP)', () =>
    given([opened])
      .when({ ...recontract(), data: { ...recontract().data, mode: 'break_glass' } })
      .thenThrows(
        withCode('owner_gate_required', (d) => d.detail === 'break_glass_marker_required'),
      ));
});
