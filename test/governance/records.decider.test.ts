import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { baselineDecider, type BaselineCommand } from '../../src/commands/governance/baseline.js';
import {
  decisionDecider,
  type DecisionCommand,
  type DecisionEvent,
} from '../../src/commands/governance/decision.js';
import {
  escalationDecider,
  type EscalationCommand,
  type EscalationEvent,
} from '../../src/commands/governance/escalation.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import type { DecisionKind, WorkPackageStatus } from '../../src/events/governance/index.js';
import { architect, impl, lead, P, pa, pm, po, reviewer, system, withCode } from './fixture.js';

describe('decision: record_decision', () => {
  const given = deciderSpec(decisionDecider);
  const record = (
    by: Caller,
    kind: DecisionKind,
    work_package_id: string | null = null,
    work_package_found = false,
  ): DecisionCommand => ({
    type: 'RecordDecision',
    data: {
      by,
      project_id: P,
      decision_id: 'd1',
      kind,
      title: 'Use OAuth',
      rationale: 'less to build',
      work_package_id,
      work_package_found,
    },
  });
  const recorded = (
    by: Caller,
    kind: DecisionKind,
    work_package_id: string | null = null,
  ): DecisionEvent => ({
    type: 'decision.recorded',
    data: {
      project_id: P,
      decision_id: 'd1',
      kind,
      title: 'Use OAuth',
      rationale: 'less to build',
      work_package_id,
      recorded_by: by.actor_id,
    },
  });

  it('PO records a product decision', () =>
    given([])
      .when(record(po, 'product'))
      .then([recorded(po, 'product')]));

  for (const by of [pm, pa, architect, impl])
    it(`${by.role} may not record a product decision`, () =>
      given([]).when(record(by, 'product')).thenThrows(withCode('forbidden')));

  for (const kind of ['technical', 'architecture', 'process'] as const) {
    for (const by of [po, pm])
      it(`${by.role} records a ${kind} decision`, () =>
        given([])
          .when(record(by, kind))
          .then([recorded(by, kind)]));
    for (const by of [pa, architect, lead, impl, reviewer, system])
      it(`${by.role} may not record a ${kind} decision`, () =>
        given([]).when(record(by, kind)).thenThrows(withCode('forbidden')));
  }

  it('about a work package that exists', () =>
    given([])
      .when(record(pm, 'technical', 'WP-001', true))
      .then([recorded(pm, 'technical', 'WP-001')]));

  it('about a work package that does not exist is not_found', () =>
    given([])
      .when(record(pm, 'technical', 'WP-404', false))
      .thenThrows(withCode('not_found')));
});

describe('escalation: raise and resolve', () => {
  const given = deciderSpec(escalationDecider);
  const raised: EscalationEvent = {
    type: 'escalation.raised',
    data: {
      project_id: P,
      escalation_id: 'e1',
      subject: 'blocked',
      details: 'no API key',
      target_role: 'PM',
      work_package_id: null,
      raised_by: 'ivan',
    },
  };
  const raise = (by: Caller): EscalationCommand => ({
    type: 'RaiseEscalation',
    data: { ...raised.data, by, work_package_found: false },
  });
  const resolve = (by: Caller): EscalationCommand => ({
    type: 'ResolveEscalation',
    data: { by, resolution: 'key issued' },
  });

  for (const by of [po, pm, pa, architect, lead, impl, reviewer])
    it(`${by.role} raises an escalation`, () =>
      given([])
        .when(raise(by))
        .then([{ ...raised, data: { ...raised.data, raised_by: by.actor_id } }]));

  it('SYSTEM is no member', () => given([]).when(raise(system)).thenThrows(withCode('forbidden')));

  for (const by of [po, pm])
    it(`${by.role} resolves it`, () =>
      given([raised])
        .when(resolve(by))
        .then([
          {
            type: 'escalation.resolved',
            data: {
              project_id: P,
              escalation_id: 'e1',
              resolution: 'key issued',
              target_role: 'PM',
              work_package_id: null,
              resolved_by: by.actor_id,
            },
          },
        ]));

  for (const by of [pa, architect, impl, reviewer, system])
    it(`${by.role} may not resolve it`, () =>
      given([raised]).when(resolve(by)).thenThrows(withCode('forbidden')));

  it('an unknown escalation is not_found', () =>
    given([]).when(resolve(pm)).thenThrows(withCode('not_found')));

  it('a resolved escalation is resolved once', () =>
    given([
      raised,
      {
        type: 'escalation.resolved',
        data: {
          project_id: P,
          escalation_id: 'e1',
          resolution: 'done',
          target_role: 'PM',
          work_package_id: null,
          resolved_by: 'pat',
        },
      },
    ])
      .when(resolve(po))
      .thenThrows(withCode('invalid_state')));
});

describe('baseline: baseline_release', () => {
  const given = deciderSpec(baselineDecider);
  const release = (
    by: Caller,
    statuses: Record<string, WorkPackageStatus | null>,
  ): BaselineCommand => ({
    type: 'ReleaseBaseline',
    data: {
      by,
      project_id: P,
      baseline_id: 'v1.0',
      work_package_ids: Object.keys(statuses),
      notes: null,
      statuses,
    },
  });

  for (const by of [po, pm])
    it(`${by.role} releases ACCEPTED packages`, () =>
      given([])
        .when(release(by, { a: 'ACCEPTED', b: 'ACCEPTED' }))
        .then([
          {
            type: 'baseline.released',
            data: {
              project_id: P,
              baseline_id: 'v1.0',
              work_package_ids: ['a', 'b'],
              notes: null,
              released_by: by.actor_id,
            },
          },
        ]));

  for (const status of ['OPEN', 'CLAIMED', 'SUBMITTED', 'REJECTED'] as const)
    it(`a ${status} package keeps the baseline out`, () =>
      given([])
        .when(release(pm, { a: 'ACCEPTED', b: status }))
        .thenThrows(withCode('invalid_state')));

  it('an unknown package is not_found', () =>
    given([])
      .when(release(pm, { a: 'ACCEPTED', b: null }))
      .thenThrows(withCode('not_found')));

  for (const by of [pa, architect, impl, reviewer, system])
    it(`${by.role} may not release`, () =>
      given([])
        .when(release(by, { a: 'ACCEPTED' }))
        .thenThrows(withCode('forbidden')));

  it('a baseline id is released once', () =>
    given([
      {
        type: 'baseline.released',
        data: {
          project_id: P,
          baseline_id: 'v1.0',
          work_package_ids: ['a'],
          notes: null,
          released_by: 'pat',
        },
      },
    ])
      .when(release(pm, { a: 'ACCEPTED' }))
      .thenThrows(withCode('invalid_state')));
});
