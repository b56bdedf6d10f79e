import type { Decider } from '@event-driven-io/emmett';
import {
  claimSubject,
  type ClaimBody,
  type IntentMode,
  type SourceRef,
} from '../../events/intent/index.js';
import {
  activeClaim,
  checkInvalidationAuthority,
  checkReferences,
  checkReplacementAuthority,
  checkShape,
} from './claim-rules.js';
import { intentError, taskNotFound } from './errors.js';
import { decideRecovery, type RecoveryCommand } from './recovery.js';
import { evolveTask, initialTask, type IntentEvent, type TaskState } from './task-state.js';

/** A task start carries at most this many initial claims (NOTES.md). */
export const INITIAL_CLAIMS_MAX = 12;
/** Long-term promotion needs the claim in this many distinct tasks, then the user's word. */
export const PROMOTION_TASKS = 3;

/**
 * Where the decided events go: the log, or (private mode) this process's memory only. The
 * decider refuses a route the task's mode does not allow, so a write racing a mode change
 * never puts semantic content on disk.
 */
export type Route = 'log' | 'memory';
type On = { now: string; route?: Route };

const SEMANTIC: ReadonlySet<TaskCommand['type']> = new Set([
  'AddClaim',
  'ReplaceClaim',
  'InvalidateClaim',
  'PromoteClaim',
  'ImportClaims',
  'RecordCandidate',
]);

const checkRoute = (state: TaskState, command: TaskCommand): void => {
  if (!SEMANTIC.has(command.type)) return;
  const route = ('route' in command.data ? command.data.route : undefined) ?? 'log';
  const allowed = state.mode === 'on' ? 'log' : state.mode === 'private' ? 'memory' : undefined;
  if (route !== allowed)
    throw intentError('MODE_CHANGED', `the task is in mode ${state.mode}`, { mode: state.mode });
};

/**
 * Commands on one task. Facts the decider cannot know come in: ids, `now`, and for a promotion
 * the distinct tasks the statement recurred in (a lookup of the read side).
 */
export type TaskCommand =
  | {
      type: 'StartTask';
      data: On & {
        project_id: string;
        task_id: string;
        /** the caller named the task: an existing one is associated, none is started */
        associate_only: boolean;
        host_session_hash: string | null;
        claims: ClaimBody[];
      };
    }
  | { type: 'AddClaim'; data: On & { claim: ClaimBody } }
  | { type: 'ReplaceClaim'; data: On & { claim: ClaimBody } }
  | {
      type: 'InvalidateClaim';
      data: On & { claim_id: string; reason: string; source_ref: SourceRef };
    }
  | {
      type: 'PromoteClaim';
      data: On & { claim_id: string; recurrence_tasks: string[]; confirmation_event_id: string };
    }
  | { type: 'SetMode'; data: On & { mode: IntentMode; marker_hash: string | null } }
  | {
      type: 'RecordCandidate';
      data: On & {
        candidate_id: string;
        origin: 'hook' | 'result' | 'history';
        hook_event: string | null;
        event_id: string | null;
        sha256: string;
      };
    }
  | { type: 'DeleteClaim'; data: On & { claim_id: string } }
  | { type: 'DeleteTask'; data: On }
  | {
      type: 'ImportClaims';
      data: On & { import_id: string; format_version: number; claims: ClaimBody[] };
    }
  | RecoveryCommand;

const requireTask = (state: TaskState): void => {
  if (!state.exists) throw taskNotFound();
  if (state.deleted)
    throw intentError('TASK_DELETED', 'the task was deleted', { task_id: state.task_id });
};

const onTask = (state: TaskState) => ({ project_id: state.project_id, task_id: state.task_id });

export { claimSubject };

const claimAdded = (state: TaskState, claim: ClaimBody): IntentEvent => ({
  type: 'intent.claim_added',
  data: { ...onTask(state), claim },
  metadata: { seal: claimSubject(claim.claim_id) },
});

/**
 * Validates claims in order: each may refer to the task's claims and to the ones before it in
 * the same command (an import's own graph), never to a later one.
 */
const addAll = (state: TaskState, claims: readonly ClaimBody[]): IntentEvent[] => {
  const added = new Set<string>();
  const known = (id: string) => state.claims.has(id) || added.has(id);
  return claims.map((claim) => {
    checkShape(claim);
    checkReferences(known, claim);
    if (known(claim.claim_id) || state.deleted_claims.has(claim.claim_id))
      throw intentError('INVALID_ARGUMENT', 'claim id already used', { claim_id: claim.claim_id });
    added.add(claim.claim_id);
    return claimAdded(state, claim);
  });
};

const start = (state: TaskState, data: Extract<TaskCommand, { type: 'StartTask' }>['data']) => {
  if (state.deleted) throw intentError('TASK_DELETED', 'the task was deleted');
  if (state.exists) return [];
  if (data.associate_only) throw taskNotFound();
  if (data.claims.length > INITIAL_CLAIMS_MAX)
    throw intentError(
      'INVALID_ARGUMENT',
      `a task starts with at most ${INITIAL_CLAIMS_MAX} claims`,
    );
  const { project_id, task_id, host_session_hash, now } = data;
  const started: IntentEvent = {
    type: 'intent.task_started',
    data: { project_id, task_id, host_session_hash, started_at: now },
  };
  const shaped = { ...initialTask(), exists: true, project_id, task_id };
  return [started, ...addAll(shaped, data.claims)];
};

const replace = (state: TaskState, claim: ClaimBody): IntentEvent[] => {
  if (claim.supersedes.length === 0)
    throw intentError('INVALID_ARGUMENT', 'a replacement supersedes at least one claim');
  if (new Set(claim.supersedes).size !== claim.supersedes.length)
    throw intentError('INVALID_ARGUMENT', 'a replacement names each superseded claim once');
  for (const id of claim.supersedes) checkReplacementAuthority(activeClaim(state, id), claim);
  return addAll(state, [claim]);
};

const invalidate = (
  state: TaskState,
  data: Extract<TaskCommand, { type: 'InvalidateClaim' }>['data'],
): IntentEvent[] => {
  checkInvalidationAuthority(activeClaim(state, data.claim_id), data.source_ref.kind);
  const { claim_id, reason, source_ref, now } = data;
  return [
    {
      type: 'intent.claim_invalidated',
      data: { ...onTask(state), claim_id, reason, source_ref, invalidated_at: now },
      metadata: { seal: claimSubject(claim_id) },
    },
  ];
};

const promote = (
  state: TaskState,
  data: Extract<TaskCommand, { type: 'PromoteClaim' }>['data'],
): IntentEvent[] => {
  const claim = activeClaim(state, data.claim_id);
  if (!claim.body.candidate || claim.promoted)
    throw intentError('INVALID_ARGUMENT', 'only an unpromoted long-term candidate is promoted');
  const tasks = [...new Set(data.recurrence_tasks)].sort();
  if (tasks.length < PROMOTION_TASKS)
    throw intentError('INVALID_ARGUMENT', 'a long-term claim needs three distinct tasks first', {
      recurrence_tasks: tasks.length,
      needed: PROMOTION_TASKS,
    });
  const { claim_id, confirmation_event_id, now } = data;
  return [
    {
      type: 'intent.claim_promoted',
      data: {
        ...onTask(state),
        claim_id,
        recurrence_tasks: tasks,
        confirmation_event_id,
        promoted_at: now,
      },
    },
  ];
};

const deleteTask = (state: TaskState, now: string): IntentEvent[] => [
  {
    type: 'intent.task_deleted',
    data: {
      ...onTask(state),
      claim_ids: [...state.claims.keys()],
      candidate_ids: [...state.candidates.keys()],
      deleted_at: now,
    },
  },
];

export const decideTask = (command: TaskCommand, state: TaskState): IntentEvent[] => {
  if (command.type === 'StartTask') return start(state, command.data);
  requireTask(state);
  checkRoute(state, command);
  const { data } = command;
  switch (command.type) {
    case 'AddClaim':
      if (command.data.claim.supersedes.length > 0)
        throw intentError('INVALID_ARGUMENT', 'use a replacement to supersede claims');
      return addAll(state, [command.data.claim]);
    case 'ReplaceClaim':
      return replace(state, command.data.claim);
    case 'InvalidateClaim':
      return invalidate(state, command.data);
    case 'PromoteClaim':
      return promote(state, command.data);
    case 'SetMode': {
      const { mode, marker_hash } = command.data;
      if (mode === 'private' && marker_hash === null)
        throw intentError('PRIVATE_TOKEN_REQUIRED', 'private mode needs the host session token');
      if (state.mode === mode && state.marker_hash === marker_hash) return [];
      return [
        {
          type: 'intent.mode_set',
          data: { ...onTask(state), mode, marker_hash, set_at: data.now },
        },
      ];
    }
    case 'RecordCandidate': {
      const { candidate_id, origin, hook_event, event_id, sha256, now } = command.data;
      if (state.candidates.has(candidate_id)) return [];
      const recorded = { candidate_id, origin, hook_event, event_id, sha256, recorded_at: now };
      return [{ type: 'intent.candidate_recorded', data: { ...onTask(state), ...recorded } }];
    }
    case 'DeleteClaim': {
      const { claim_id } = command.data;
      // a retried delete finds its tombstone: nothing more to write, the shred is re-run
      if (state.deleted_claims.has(claim_id)) return [];
      if (!state.claims.has(claim_id))
        throw intentError('CLAIM_NOT_FOUND', 'no such claim in this task', { claim_id });
      return [
        {
          type: 'intent.claim_deleted',
          data: { ...onTask(state), claim_id, deleted_at: data.now },
        },
      ];
    }
    case 'DeleteTask':
      return deleteTask(state, data.now);
    case 'ImportClaims': {
      const { import_id, format_version, claims, now } = command.data;
      // an import never displaces what the task holds: its supersessions stay inside it
      const own = new Set(claims.map((c) => c.claim_id));
      if (claims.some((c) => c.supersedes.some((id) => !own.has(id))))
        throw intentError('IMPORT_INVALID', 'an imported claim supersedes only imported claims');
      const recorded: IntentEvent = {
        type: 'intent.import_recorded',
        data: {
          ...onTask(state),
          import_id,
          format_version,
          claim_count: claims.length,
          incomplete_history: true,
          imported_at: now,
        },
      };
      return [recorded, ...addAll(state, claims)];
    }
    case 'FlagRecovery':
    case 'ServeRecovery':
      return decideRecovery(command, state);
  }
};

export const taskDecider: Decider<TaskState, TaskCommand, IntentEvent> = {
  decide: decideTask,
  evolve: evolveTask,
  initialState: initialTask,
};
