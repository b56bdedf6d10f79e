import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { deskDecider } from '../../src/commands/missions/desk.js';
import type { DeskEvent } from '../../src/commands/missions/desk-events.js';
import { OWNER, P, T0, at, contract, granted, opened, withCode } from './fixture.js';

const given = deciderSpec(deskDecider);

const authorize = (session_id: string, minutes = 1, extra: Record<string, unknown> = {}) => ({
  type: 'AuthorizeSession' as const,
  data: {
    project_id: P,
    now: at(minutes),
    session_id,
    mission_id: 'M1',
    contract_version: 1,
    agent_identity: `agent-${session_id}`,
    role: 'implementer',
    contribution: 'the exporter',
    expected_result: 'csv.ts',
    duration_minutes: 30,
    criterion_ids: ['C1'],
    capabilities: [],
    device_id: null,
    harness_id: null,
    device_mounted: null,
    ...extra,
  },
});

const close = (evidence: Record<string, { paths: string[]; note: string | null }>) => ({
  type: 'CloseMission' as const,
  data: {
    project_id: P,
    now: at(5),
    mission_id: 'M1',
    contract_version: 1,
    closure: 'completed' as const,
    outcome_summary: 'exported',
    evidence,
    gate: null,
  },
});

describe('missions desk decider', () => {
  describe('OpenMission', () => {
    const open = (extra = {}) => ({
      type: 'OpenMission' as const,
      data: { project_id: P, now: T0, mission_id: 'M1', contract: { ...contract, ...extra } },
    });

    it('opens a valid finite contract as version 1 with its hash', () =>
      given([]).when(open()).then([opened]));

    it('answers review_required with the issues of a vague contract', () =>
      given([])
        .when(open({ artifact: '' }))
        .thenThrows(
          withCode(
            'review_required',
            (d) =>
              (d.issues as string[]).includes('artifact is required') &&
              JSON.stringify(d.issue_details).includes('artifact_missing'),
          ),
        ));

    it('refuses a second active mission in the project', () =>
      given([opened])
        .when({ ...open(), data: { ...open().data, mission_id: 'M2' } })
        .thenThrows(withCode('active_mission_exists')));
  });

  describe('AuthorizeSession', () => {
    it('grants a lease that expires after its duration', () =>
      given([opened])
        .when(authorize('S1'))
        .then([granted('S1', 1)]));

    it('refuses more sessions than max_parallel_sessions', () =>
      given([opened, granted('S1'), granted('S2')])
        .when(authorize('S3'))
        .thenThrows(withCode('parallel_session_denied')));

    it('frees the slot of an expired lease', () =>
      given([opened, granted('S1'), granted('S2')])
        .when(authorize('S3', 31))
        .then([granted('S3', 31)]));

    it('refuses an old contract version', () =>
      given([opened])
        .when(authorize('S1', 1, { contract_version: 2 }))
        .thenThrows(withCode('contract_version_mismatch', (d) => d.current_version === 1)));

    it('needs a mounted device when the contract names a logical project', () => {
      const logical = {
        ...opened,
        data: {
          ...opened.data,
          contract: {
            ...contract,
            constraints: { ...contract.constraints, project_path: null, project_id: 'demo' },
          },
        },
      } as DeskEvent;
      given([logical]).when(authorize('S1')).thenThrows(withCode('device_mount_required'));
    });

    it('refuses capabilities the contract does not grant', () =>
      given([opened])
        .when(authorize('S1', 1, { capabilities: ['push'] }))
        .thenThrows(withCode('invalid_args')));
  });

  describe('CloseMission', () => {
    it('writes nothing while a criterion lacks evidence (incomplete)', () =>
      given([opened])
        .when(close({ C1: { paths: ['src/export/csv.ts'], note: null } }))
        .then([]));

    it('closes with evidence for every criterion and revokes live leases', () =>
      given([opened, granted('S1')])
        .when(
          close({
            C1: { paths: ['src/export/csv.ts'], note: null },
            C2: { paths: ['test/csv.test.ts'], note: 'empty weeks' },
          }),
        )
        .then([
          {
            type: 'mission.closed',
            data: {
              project_id: P,
              mission_id: 'M1',
              contract_version: 1,
              closure: 'completed',
              outcome_summary: 'exported',
              evidence: {
                C1: { paths: ['src/export/csv.ts'], note: null },
                C2: { paths: ['test/csv.test.ts'], note: 'empty weeks' },
              },
              gate: null,
              closed_at: at(5),
            },
          },
          { type: 'lease.revoked', data: { project_id: P, session_ids: ['S1'], reason: 'close' } },
        ]));
  });

  describe('SetFocus', () => {
    const focus = (focus_id: string) => ({
      type: 'SetFocus' as const,
      data: { project_id: P, focus_id, label: null, status: 'ACTIVE' as const },
    });
    const lane = (focus_id: string): DeskEvent => ({
      type: 'focus_lane.set',
      data: focus(focus_id).data,
    });

    it('allows two ACTIVE lanes', () =>
      given([lane('a')])
        .when(focus('b'))
        .then([lane('b')]));
    it('refuses a third ACTIVE lane', () =>
      given([lane('a'), lane('b')])
        .when(focus('c'))
        .thenThrows(withCode('max_active_lanes')));
    it('lets a paused lane make room', () =>
      given([
        lane('a'),
        lane('b'),
        { type: 'focus_lane.set', data: { ...focus('a').data, status: 'PAUSED' } },
      ])
        .when(focus('c'))
        .then([lane('c')]));
  });

  describe('Distill', () => {
    it('keeps one decision and one next step, and parks the rest', () =>
      given([
        {
          type: 'intake.captured',
          data: { project_id: P, intake_id: 'I1', raw: 'many ideas', captured_at: T0 },
        },
      ])
        .when({
          type: 'Distill',
          data: {
            project_id: P,
            now: at(1),
            intake_id: 'I1',
            decision: 'csv first',
            next_step: 'write csv.ts',
            parklist: ['pdf later'],
            item_ids: ['IT1'],
          },
        })
        .then([
          {
            type: 'intake.distilled',
            data: {
              project_id: P,
              intake_id: 'I1',
              decision: 'csv first',
              next_step: 'write csv.ts',
              parked_item_ids: ['IT1'],
            },
          },
          {
            type: 'inbox_item.parked',
            data: {
              project_id: P,
              item_id: 'IT1',
              text: 'pdf later',
              tags: ['distill'],
              source: 'I1',
              parked_at: at(1),
            },
          },
        ]));

    // issue 30 #4: "exactly one decision" is one line, not a bundled multi-line plan
    for (const field of ['decision', 'next_step'] as const)
      it(`refuses a ${field} of several lines`, () =>
        given([
          {
            type: 'intake.captured',
            data: { project_id: P, intake_id: 'I1', raw: 'many ideas', captured_at: T0 },
          },
        ])
          .when({
            type: 'Distill',
            data: {
              project_id: P,
              now: at(1),
              intake_id: 'I1',
              decision: 'csv first',
              next_step: 'write csv.ts',
              [field]: 'do A\ndo B\ndo C',
              parklist: [],
              item_ids: [],
            },
          })
          .thenThrows(withCode('invalid_args', (d) => d.field === field)));
  });

  it('refuses a recontract that changes nothing', () =>
    given([opened])
      .when({
        type: 'Recontract',
        data: {
          project_id: P,
          now: at(1),
          mission_id: 'M1',
          contract_version: 1,
          changes: { owner: 'sam' },
          reason: 'no-op',
          mode: 'normal',
          break_glass_marker: false,
          gate: { mode: 'ack_legacy', owner_ack: true, reason: 'ok', caller: OWNER },
        },
      })
      .thenThrows(withCode('invalid_args')));
});
