import type { Decider } from '@event-driven-io/emmett';
import {
  claimSubject,
  intentRef,
  taskSubject,
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
import { Snapshots } from '../snapshots.js';
import { decideImport, type ImportData } from './import-decision.js';
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
      /**
       * `claim`: the user's own confirmation, a new user-explicit long-term claim (basis
       * confirmed_candidate) that supersedes the candidate
       */
      data: On & {
        claim_id: string;
        recurrence_tasks: string[];
        confirmation_event_id: string;
        claim: ClaimBody;
      };
    }
  | {
      type: 'SetMode';
      /** `marker_hash`: the hash of the host session the caller named, if it named one */
      data: On & { mode: IntentMode; marker_hash: string | null };
    }
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
      data: On & Omit<ImportData, 'now'>;
    }
  | RecoveryCommand;

const requireTask = (state: TaskState): void => {
  if (!state.exists) throw taskNotFound();
  if (state.deleted)
    throw intentError('TASK_DELETED', 'the task was deleted', { task_id: state.task_id });
};

const onTask = (state: TaskState) => ({ project_id: state.project_id, task_id: state.task_id });
/** A tombstone's task: by ref, since a tombstone is in clear and outlives the task's key. */
const byRef = (state: TaskState) => ({
  project_id: state.project_id,
  task_ref: intentRef(state.task_id),
});

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
    if (known(claim.claim_id) || state.deleted_claims.has(intentRef(claim.claim_id)))
      throw intentError('INVALID_ARGUMENT', 'claim id already used', { claim_id: claim.claim_id });
    added.add(claim.claim_id);
    return claimAdded(state, claim);
  });
};

/**
 * A start naming an existing task: a host session other than the task's current one takes it
 * over (the last association wins; the earlier session's Hooks no longer land here). A private
 * task stays with the session its marker names.
 */
const associate = (
  state: TaskState,
  data: Extract<TaskCommand, { type: 'StartTask' }>['data'],
): IntentEvent[] => {
  const { host_session_hash: hash, now } = data;
  if (hash === null || hash === state.host_session_hash) return [];
  if (state.mode === 'private' && hash !== state.marker_hash)
    throw intentError('PRIVATE_TASK_OWNED', 'the private task belongs to another host session');
  return [
    {
      type: 'intent.session_associated',
      data: { ...onTask(state), host_session_hash: hash, associated_at: now },
    },
  ];
};

const start = (state: TaskState, data: Extract<TaskCommand, { type: 'StartTask' }>['data']) => {
  if (state.deleted) throw intentError('TASK_DELETED', 'the task was deleted');
  if (state.exists) return associate(state, data);
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

/**
 * The user confirms a long-term candidate that recurred in three distinct tasks: the candidate
 * is marked promoted and the user's own wording becomes a user-explicit long-term claim that
 * supersedes it, in one decision.
 */
const promote = (
  state: TaskState,
  data: Extract<TaskCommand, { type: 'PromoteClaim' }>['data'],
): IntentEvent[] => {
  const candidate = activeClaim(state, data.claim_id);
  if (!candidate.body.candidate || candidate.promoted)
    throw intentError('INVALID_ARGUMENT', 'only an unpromoted long-term candidate is promoted');
  const tasks = [...new Set(data.recurrence_tasks)].sort();
  if (tasks.length < PROMOTION_TASKS)
    throw intentError(
      'LONG_TERM_CONFIRMATION_REQUIRED',
      'a long-term claim needs three distinct tasks first',
      { recurrence_tasks: tasks.length, needed: PROMOTION_TASKS },
    );
  const { claim, claim_id, confirmation_event_id, now } = data;
  const confirmed =
    claim.epistemic_status === 'explicit' &&
    claim.basis === 'confirmed_candidate' &&
    claim.scope === 'long_term' &&
    !claim.candidate &&
    claim.supersedes.length === 1 &&
    claim.supersedes[0] === claim_id;
  if (!confirmed)
    throw intentError(
      'INVALID_ARGUMENT',
      'a confirmation is a user-explicit long-term claim that supersedes the candidate',
    );
  const promoted: IntentEvent = {
    type: 'intent.claim_promoted',
    data: {
      ...onTask(state),
      claim_id,
      recurrence_tasks: tasks,
      confirmation_event_id,
      promoted_at: now,
    },
    // the candidate's id and the tasks it recurred in go with the candidate when it is deleted
    metadata: { seal: claimSubject(claim_id) },
  };
  // the confirmation is the user's word on the candidate itself: no other authority applies
  return [promoted, ...addAll(evolveTask(state, promoted), [claim])];
};

/**
 * A mode change. Private mode is bound to a host session: the one named, else the session the
 * task is associated with. A private task stays its session's: another session named here can
 * neither take it nor switch it back (PRIVATE_TASK_OWNED).
 */
const setMode = (
  state: TaskState,
  data: Extract<TaskCommand, { type: 'SetMode' }>['data'],
): IntentEvent[] => {
  const { mode, marker_hash: session } = data;
  if (state.mode === 'private' && session !== null && session !== state.marker_hash)
    throw intentError('PRIVATE_TASK_OWNED', 'the private task belongs to another host session');
  const marker_hash = mode === 'private' ? (session ?? state.host_session_hash) : null;
  if (mode === 'private' && marker_hash === null)
    throw intentError('PRIVATE_TOKEN_REQUIRED', 'private mode needs the host session token');
  if (state.mode === mode && state.marker_hash === marker_hash) return [];
  return [
    { type: 'intent.mode_set', data: { ...onTask(state), mode, marker_hash, set_at: data.now } },
  ];
};

const deleteTask = (state: TaskState, now: string): IntentEvent[] => [
  {
    type: 'intent.task_deleted',
    data: {
      ...byRef(state),
      claim_refs: [...state.claims.values()].map((c) => c.ref),
      candidate_ids: [...state.candidates.keys()],
      deleted_at: now,
    },
  },
];

/**
 * Every event but a claim's (sealed under the claim) and a tombstone (naming the task by ref)
 * is sealed under the task's subject: a task delete shreds it, and no event of the task holds
 * its id in clear (issue 33).
 */
const sealed = (events: IntentEvent[]): IntentEvent[] =>
  events.map((e) =>
    e.metadata?.seal !== undefined || !('task_id' in e.data)
      ? e
      : { ...e, metadata: { seal: taskSubject(e.data.task_id) } },
  );

export const decideTask = (command: TaskCommand, state: TaskState): IntentEvent[] =>
  sealed(decideUnsealed(command, state));

const decideUnsealed = (command: TaskCommand, state: TaskState): IntentEvent[] => {
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
    case 'SetMode':
      return setMode(state, command.data);
    case 'RecordCandidate': {
      const { candidate_id, origin, hook_event, event_id, sha256, now } = command.data;
      if (state.candidates.has(candidate_id)) return [];
      const recorded = { candidate_id, origin, hook_event, event_id, sha256, recorded_at: now };
      return [{ type: 'intent.candidate_recorded', data: { ...onTask(state), ...recorded } }];
    }
    case 'DeleteClaim': {
      const { claim_id } = command.data;
      // a retried delete finds its tombstone: nothing more to write, the shred is re-run
      if (state.deleted_claims.has(intentRef(claim_id))) return [];
      if (!state.claims.has(claim_id))
        throw intentError('CLAIM_NOT_FOUND', 'no such claim in this task', { claim_id });
      return [
        {
          type: 'intent.claim_deleted',
          data: { ...byRef(state), claim_ref: intentRef(claim_id), deleted_at: data.now },
        },
      ];
    }
    case 'DeleteTask':
      return deleteTask(state, data.now);
    case 'ImportClaims':
      return decideImport(state, command.data, (claims) => addAll(state, claims));
    case 'FlagRecovery':
    case 'ServeRecovery':
      return decideRecovery(command, state);
  }
};

/**
 * Snapshots of a task's state (src/commands/snapshots.ts): bump `version` whenever evolveTask or
 * TaskState's shape changes. 1: claims, candidates and deleted refs in maps (issue 39).
 */
export const taskDecider: Decider<TaskState, TaskCommand, IntentEvent> = Snapshots.of(
  { decide: decideTask, evolve: evolveTask, initialState: initialTask },
  { name: 'intent.task', version: 1 },
);
