import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { claimSubject, taskDecider } from '../../src/commands/intent/task.js';
import type { IntentEvent } from '../../src/commands/intent/task-state.js';
import { intentRef, taskSubject, type SourceRef } from '../../src/events/intent/index.js';
import { LATER, NOW, P, T, added, claim, started, startedWith, withCode } from './fixture.js';

const given = deciderSpec(taskDecider);
const userEvent = { kind: 'user_event' as const, event_id: 'u-9', sha256: null, excerpt: null };
const agentTurn = { kind: 'agent_turn' as const, event_id: 'turn-9', sha256: null, excerpt: null };
const explicitA = claim('a', 'explicit');
const inferredB = claim('b', 'inferred');

describe('intent task decider', () => {
  describe('StartTask', () => {
    const start = (claims = [explicitA]) => ({
      type: 'StartTask' as const,
      data: {
        project_id: P,
        task_id: T,
        associate_only: false,
        host_session_hash: null,
        claims,
        now: NOW,
      },
    });
    it('starts a task with its initial claims, each sealed under its own subject', () =>
      given([])
        .when(start())
        .then([started, added(explicitA)]));
    it('associates with an existing task without writing', () =>
      given([started]).when(start()).thenNothingHappened());
    // intent-loop security-regressions "reassociation revokes an old Hook session"
    const startWith = (host_session_hash: string | null) => ({
      ...start([]),
      data: { ...start([]).data, associate_only: true, host_session_hash },
    });
    const startedS1 = startedWith('hash-s1');
    const associatedS2: IntentEvent = {
      type: 'intent.session_associated',
      metadata: { seal: taskSubject(T) },
      data: { project_id: P, task_id: T, host_session_hash: 'hash-s2', associated_at: NOW },
    };
    it('associates another host session with an existing task: it feeds the task now', () =>
      given([startedS1]).when(startWith('hash-s2')).then([associatedS2]));
    it('associates the session it already has, or none, without writing', () => {
      given([startedS1]).when(startWith('hash-s1')).thenNothingHappened();
      given([startedS1, associatedS2]).when(startWith('hash-s2')).thenNothingHappened();
      given([startedS1]).when(startWith(null)).thenNothingHappened();
    });
    it('keeps a private task with the session its marker names', () =>
      given([
        startedS1,
        {
          type: 'intent.mode_set',
          metadata: { seal: taskSubject(T) },
          data: { project_id: P, task_id: T, mode: 'private', marker_hash: 'hash-s1', set_at: NOW },
        },
      ])
        .when(startWith('hash-s2'))
        .thenThrows(withCode('PRIVATE_TASK_OWNED')));
    it('refuses more than 12 initial claims', () =>
      given([])
        .when(start(Array.from({ length: 13 }, (_, i) => claim(`c${i}`, 'explicit'))))
        .thenThrows(withCode('INVALID_ARGUMENT')));
  });

  describe('AddClaim: the shape of each status', () => {
    const add = (body = explicitA) => ({
      type: 'AddClaim' as const,
      data: { claim: body, now: NOW },
    });
    it('adds an inference with confidence', () =>
      given([started])
        .when(add(inferredB))
        .then([added(inferredB)]));
    it('refuses an inference without confidence', () =>
      given([started])
        .when(add(claim('b', 'inferred', { confidence: null })))
        .thenThrows(withCode('INVALID_ARGUMENT')));
    it('refuses confidence on anything but an inference', () =>
      given([started])
        .when(add(claim('e', 'evidence', { confidence: 0.9 })))
        .thenThrows(withCode('INVALID_ARGUMENT')));
    it('refuses a user-explicit claim from a tool result', () =>
      given([started])
        .when(add(claim('a', 'explicit', { source_ref: { ...agentTurn, kind: 'tool_result' } })))
        .thenThrows(withCode('AUTHORITY_VIOLATION')));
    it('adds an unknown that names no decision (intent-loop’s unknowns name none)', () => {
      const unknown = claim('u', 'unknown', { affects_decision: null });
      given([started])
        .when(add(unknown))
        .then([added(unknown)]);
    });
    it('refuses a feedback class on anything but evidence', () =>
      given([started])
        .when(add(claim('i', 'inferred', { feedback_class: 'keep' })))
        .thenThrows(withCode('INVALID_ARGUMENT')));
    it('adds a dispute over two claims without choosing a winner', () => {
      const dispute = claim('d', 'disputed', { disputes: ['a', 'b'] });
      given([started, added(explicitA), added(inferredB)])
        .when(add(dispute))
        .then([added(dispute)]);
    });
    it('adds a free-standing dispute', () => {
      const dispute = claim('d', 'disputed');
      given([started])
        .when(add(dispute))
        .then([added(dispute)]);
    });
    it('refuses a dispute over one claim', () =>
      given([started, added(explicitA)])
        .when(add(claim('d', 'disputed', { disputes: ['a'] })))
        .thenThrows(withCode('INVALID_ARGUMENT')));
    it('refuses a dispute over a claim of another task', () =>
      given([started, added(explicitA)])
        .when(add(claim('d', 'disputed', { disputes: ['a', 'elsewhere'] })))
        .thenThrows(withCode('CLAIM_NOT_FOUND')));
    it('refuses a claim on a task that was never started', () =>
      given([]).when(add()).thenThrows(withCode('TASK_NOT_FOUND')));
  });

  describe('ReplaceClaim: atomic, under the authority rules', () => {
    const replace = (body: ReturnType<typeof claim>) => ({
      type: 'ReplaceClaim' as const,
      data: { claim: body, now: LATER },
    });
    it('supersedes several claims in one event', () => {
      const c = claim('c', 'explicit', { supersedes: ['a', 'b'] });
      given([started, added(explicitA), added(inferredB)])
        .when(replace(c))
        .then([added(c)]);
    });
    it('refuses an inference replacing a user-explicit claim', () =>
      given([started, added(explicitA)])
        .when(replace(claim('c', 'inferred', { supersedes: ['a'] })))
        .thenThrows(withCode('AUTHORITY_VIOLATION')));
    it('refuses a confirmed candidate replacing a user-explicit claim (not direct input)', () =>
      given([started, added(explicitA)])
        .when(replace(claim('c', 'explicit', { supersedes: ['a'], basis: 'confirmed_candidate' })))
        .thenThrows(withCode('AUTHORITY_VIOLATION')));
    it('lets evidence replace an inference', () => {
      const c = claim('c', 'evidence', { supersedes: ['b'] });
      given([started, added(inferredB)])
        .when(replace(c))
        .then([added(c)]);
    });
    it('refuses to supersede a claim already superseded', () =>
      given([started, added(inferredB), added(claim('c', 'inferred', { supersedes: ['b'] }))])
        .when(replace(claim('d', 'inferred', { supersedes: ['b'] })))
        .thenThrows(withCode('CLAIM_NOT_ACTIVE')));
  });

  describe('InvalidateClaim', () => {
    const invalidate = (claim_id: string, source_ref: SourceRef = userEvent) => ({
      type: 'InvalidateClaim' as const,
      data: { claim_id, reason: 'no longer wanted', source_ref, now: LATER },
    });
    const invalidated = (claim_id: string, source_ref: SourceRef = userEvent): IntentEvent => ({
      type: 'intent.claim_invalidated',
      data: {
        project_id: P,
        task_id: T,
        claim_id,
        reason: 'no longer wanted',
        source_ref,
        invalidated_at: LATER,
      },
      metadata: { seal: claimSubject(claim_id) },
    });
    it('invalidates a user-explicit claim on a direct user event', () =>
      given([started, added(explicitA)])
        .when(invalidate('a'))
        .then([invalidated('a')]));
    it('refuses to invalidate a user-explicit claim from an agent turn', () =>
      given([started, added(explicitA)])
        .when(invalidate('a', agentTurn))
        .thenThrows(withCode('AUTHORITY_VIOLATION')));
    it('lets an agent invalidate its own inference', () =>
      given([started, added(inferredB)])
        .when(invalidate('b', agentTurn))
        .then([invalidated('b', agentTurn)]));
    it('refuses to invalidate twice', () =>
      given([started, added(inferredB), invalidated('b', agentTurn)])
        .when(invalidate('b', agentTurn))
        .thenThrows(withCode('CLAIM_NOT_ACTIVE')));
  });

  describe('PromoteClaim: three distinct tasks plus confirmation', () => {
    // intent-loop service.test "long-term inference stays a candidate until three tasks and
    // direct confirmation"
    const candidate = claim('l', 'inferred', { scope: 'long_term', candidate: true });
    const confirmation = claim('n', 'explicit', {
      statement: 'Across projects, I prefer dense keyboard-first tables.',
      basis: 'confirmed_candidate',
      scope: 'long_term',
      supersedes: ['l'],
      valid_from: LATER,
    });
    const promote = (recurrence_tasks: string[], claim_id = 'l', body = confirmation) => ({
      type: 'PromoteClaim' as const,
      data: {
        claim_id,
        recurrence_tasks,
        confirmation_event_id: 'u-5',
        claim: { ...body, supersedes: [claim_id] },
        now: LATER,
      },
    });
    it('refuses a promotion seen in two tasks (a repeat of one task counts once)', () =>
      given([started, added(candidate)])
        .when(promote([T, 'task-2', 'task-2']))
        .thenThrows(withCode('LONG_TERM_CONFIRMATION_REQUIRED')));
    it('promotes after three distinct tasks: the user’s words become the explicit claim', () =>
      given([started, added(candidate)])
        .when(promote(['task-3', T, 'task-2']))
        .then([
          {
            type: 'intent.claim_promoted',
            data: {
              project_id: P,
              task_id: T,
              claim_id: 'l',
              recurrence_tasks: [T, 'task-2', 'task-3'].sort(),
              confirmation_event_id: 'u-5',
              promoted_at: LATER,
            },
            metadata: { seal: claimSubject('l') },
          },
          added(confirmation),
        ]));
    it('refuses a confirmation that is not a user-explicit long-term claim', () =>
      given([started, added(candidate)])
        .when(promote([T, 'task-2', 'task-3'], 'l', { ...confirmation, scope: 'task' }))
        .thenThrows(withCode('INVALID_ARGUMENT')));
    it('refuses to promote what is not a candidate', () =>
      given([started, added(inferredB)])
        .when(promote([T, 'task-2', 'task-3'], 'b'))
        .thenThrows(withCode('INVALID_ARGUMENT')));
  });

  describe('modes and deletion', () => {
    const setMode = (mode: 'on' | 'private' | 'off', marker_hash: string | null) => ({
      type: 'SetMode' as const,
      data: { mode, marker_hash, now: NOW },
    });
    const modeSet = (mode: 'on' | 'private' | 'off', marker_hash: string | null): IntentEvent => ({
      type: 'intent.mode_set',
      metadata: { seal: taskSubject(T) },
      data: { project_id: P, task_id: T, mode, marker_hash, set_at: NOW },
    });
    const withSession = startedWith('hash-s1');
    it('private mode needs the hashed host token', () =>
      given([started])
        .when(setMode('private', null))
        .thenThrows(withCode('PRIVATE_TOKEN_REQUIRED')));
    it('private mode without a token takes the task’s associated session', () =>
      given([withSession])
        .when(setMode('private', null))
        .then([modeSet('private', 'hash-s1')]));
    it('a private task is its session’s: another session cannot switch it', () => {
      given([withSession, modeSet('private', 'hash-s1')])
        .when(setMode('on', 'hash-s2'))
        .thenThrows(withCode('PRIVATE_TASK_OWNED'));
      given([withSession, modeSet('private', 'hash-s1')])
        .when(setMode('private', 'hash-s2'))
        .thenThrows(withCode('PRIVATE_TASK_OWNED'));
      given([withSession, modeSet('private', 'hash-s1')])
        .when(setMode('on', 'hash-s1'))
        .then([modeSet('on', null)]);
    });
    it('deletes a claim with a tombstone; a deleted claim id is never reused', () => {
      // the tombstone names the claim by its ref: its id is not kept once its key is shredded
      const tombstone: IntentEvent = {
        type: 'intent.claim_deleted',
        data: {
          project_id: P,
          task_ref: intentRef(T),
          claim_ref: intentRef('a'),
          deleted_at: LATER,
        },
      };
      given([started, added(explicitA)])
        .when({ type: 'DeleteClaim', data: { claim_id: 'a', now: LATER } })
        .then([tombstone]);
      given([started, added(explicitA), tombstone])
        .when({ type: 'AddClaim', data: { claim: explicitA, now: LATER } })
        .thenThrows(withCode('INVALID_ARGUMENT'));
    });
    it('a shredded claim event changes nothing; the rest of the task stands', () =>
      given([started, { type: 'intent.claim_added', data: {} } as unknown as IntentEvent])
        .when({ type: 'AddClaim', data: { claim: inferredB, now: NOW } })
        .then([added(inferredB)]));
    it('refuses writes to a deleted task', () =>
      given([
        started,
        {
          type: 'intent.task_deleted',
          data: {
            project_id: P,
            task_ref: intentRef(T),
            claim_refs: [],
            candidate_ids: [],
            deleted_at: NOW,
          },
        },
      ])
        .when({ type: 'AddClaim', data: { claim: inferredB, now: NOW } })
        .thenThrows(withCode('TASK_DELETED')));
  });

  describe('ImportClaims', () => {
    const imported = (id: string, over = {}) =>
      claim(id, 'inferred', {
        source_ref: {
          kind: 'explicit_import',
          event_id: null,
          sha256: 'cd'.repeat(32),
          excerpt: null,
        },
        import_id: 'imp-1',
        ...over,
      });
    it('refuses an import that supersedes a claim the task holds (never merged silently)', () =>
      given([started, added(inferredB)])
        .when({
          type: 'ImportClaims',
          data: {
            import_id: 'imp-1',
            format_version: 1,
            claims: [imported('x', { supersedes: ['b'] })],
            now: NOW,
          },
        })
        .thenThrows(withCode('IMPORT_INVALID')));
    it('records the import as incomplete external history, then its claims in order', () =>
      given([started])
        .when({
          type: 'ImportClaims',
          data: {
            import_id: 'imp-1',
            format_version: 1,
            claims: [imported('x'), imported('y', { supersedes: ['x'] })],
            now: NOW,
          },
        })
        .then([
          {
            type: 'intent.import_recorded',
            metadata: { seal: taskSubject(T) },
            data: {
              project_id: P,
              task_id: T,
              import_id: 'imp-1',
              format_version: 1,
              claim_count: 2,
              incomplete_history: true,
              imported_at: NOW,
            },
          },
          added(imported('x')),
          added(imported('y', { supersedes: ['x'] })),
        ]));
  });
});

describe('intent task decider: modes route semantic writes', () => {
  const privateMode: IntentEvent = {
    type: 'intent.mode_set',
    metadata: { seal: taskSubject(T) },
    data: { project_id: P, task_id: T, mode: 'private', marker_hash: 'h', set_at: NOW },
  };
  const offMode: IntentEvent = {
    type: 'intent.mode_set',
    metadata: { seal: taskSubject(T) },
    data: { project_id: P, task_id: T, mode: 'off', marker_hash: null, set_at: NOW },
  };
  const b = claim('b', 'inferred');
  it('refuses to write a claim to the log while the task is private', () =>
    given([started, privateMode])
      .when({ type: 'AddClaim', data: { claim: b, now: NOW, route: 'log' } })
      .thenThrows(withCode('MODE_CHANGED')));
  it('decides a private claim for memory', () =>
    given([started, privateMode])
      .when({ type: 'AddClaim', data: { claim: b, now: NOW, route: 'memory' } })
      .then([added(b)]));
  it('refuses every semantic write while the task is off', () =>
    given([started, offMode])
      .when({ type: 'AddClaim', data: { claim: b, now: NOW } })
      .thenThrows(withCode('MODE_CHANGED')));
});
