import type { EventOf } from '../../events/index.js';
import {
  claimSubject,
  intentRef,
  type ClaimBody,
  type IntentCandidateRecorded,
  type IntentClaimAdded,
  type IntentClaimDeleted,
  type IntentClaimInvalidated,
  type IntentClaimPromoted,
  type IntentImportRecorded,
  type IntentMode,
  type IntentModeSet,
  type IntentRecoveryFlagged,
  type IntentRecoveryServed,
  type IntentSessionAssociated,
  type IntentTaskDeleted,
  type IntentTaskStarted,
} from '../../events/intent/index.js';
import { PersistentMap } from '../persistent-map.js';
import { Snapshots } from '../snapshots.js';

/**
 * What the log hands a fold beside the event: the envelope's `actor_id` of a stored event
 * (absent on an event just decided, which is never a task start the fold needs it from).
 */
type Stored = { metadata?: { seal?: string; actorId?: string } };

export type IntentEvent = (
  | EventOf<typeof IntentTaskStarted>
  | EventOf<typeof IntentSessionAssociated>
  | EventOf<typeof IntentClaimAdded>
  | EventOf<typeof IntentClaimInvalidated>
  | EventOf<typeof IntentClaimPromoted>
  | EventOf<typeof IntentClaimDeleted>
  | EventOf<typeof IntentTaskDeleted>
  | EventOf<typeof IntentModeSet>
  | EventOf<typeof IntentCandidateRecorded>
  | EventOf<typeof IntentImportRecorded>
  | EventOf<typeof IntentRecoveryFlagged>
  | EventOf<typeof IntentRecoveryServed>
) &
  Stored;

/** A recovery flag up (post-compact), until a SessionStart serves it. */
export type RecoveryFlag = { state: 'verified' | 'unverified'; flagged_at: string };

/** Where a claim stands: current, or left the projection (and why). */
export type ClaimLife = 'active' | 'superseded' | 'invalidated';

export type ClaimState = {
  body: ClaimBody;
  /** the claim's ref (intentRef): how a tombstone names it */
  ref: string;
  /**
   * The subject its content was sealed under: claimSubject, or for a claim written before refs
   * its legacy subject. A delete shreds this one too.
   */
  subject: string;
  life: ClaimLife;
  superseded_by: string | null;
  promoted: boolean;
  /** its place in the order the task's claims were added (0, 1, …; a deleted one leaves a gap) */
  ordinal: number;
};

export type CandidateState = {
  candidate_id: string;
  origin: 'hook' | 'result' | 'history';
  hook_event: string | null;
  sha256: string;
  recorded_at: string;
};

/**
 * One task of one project: the aggregate every claim rule is decided against. What grows with
 * the task's history (claims, candidates, deleted refs) is a map keyed by id: an event adds or
 * changes one entry in O(1), never copies the rest, and a rule looks one up by its key, so a
 * command costs the same on a task of 20 events and of 10,000 (issue 39).
 */
export type TaskState = {
  exists: boolean;
  deleted: boolean;
  project_id: string;
  task_id: string;
  /**
   * Who started the task and so owns it: the `actor_id` of its start event's envelope (a
   * principal's id; `system` for the SYSTEM principal). Empty when unknown: none but SYSTEM
   * reaches such a task.
   */
  owner: string;
  started_at: string;
  mode: IntentMode;
  marker_hash: string | null;
  /** the host session that feeds the task now (its start's, or the last associated) */
  host_session_hash: string | null;
  /** by claim id, in the order they were added; a deleted claim is gone from here */
  claims: PersistentMap<string, ClaimState>;
  /** claim ref → claim id, for the claims held: how a tombstone (naming a ref) finds its claim */
  claimByRef: PersistentMap<string, string>;
  /** claims ever added: the next claim's ordinal */
  added: number;
  /** refs of claims that were deleted (their tombstones name them so) */
  deleted_claims: PersistentMap<string, true>;
  candidates: PersistentMap<string, CandidateState>;
  /** imports recorded */
  imports: number;
  recovery: RecoveryFlag | null;
};

export const initialTask = (): TaskState => ({
  exists: false,
  deleted: false,
  project_id: '',
  task_id: '',
  owner: '',
  started_at: '',
  mode: 'on',
  marker_hash: null,
  host_session_hash: null,
  claims: PersistentMap.empty(),
  claimByRef: PersistentMap.empty(),
  added: 0,
  deleted_claims: PersistentMap.empty(),
  candidates: PersistentMap.empty(),
  imports: 0,
  recovery: null,
});

const addClaim = (state: TaskState, body: ClaimBody, seal: string | undefined): TaskState => {
  const ref = intentRef(body.claim_id);
  let claims = state.claims.with(body.claim_id, {
    body,
    ref,
    subject: seal ?? claimSubject(body.claim_id),
    life: 'active',
    superseded_by: null,
    promoted: false,
    ordinal: state.added,
  });
  for (const old of body.supersedes) {
    const target = claims.get(old);
    if (target)
      claims = claims.with(old, { ...target, life: 'superseded', superseded_by: body.claim_id });
  }
  const claimByRef = state.claimByRef.with(ref, body.claim_id);
  return { ...state, claims, claimByRef, added: state.added + 1 };
};

const changeClaim = (state: TaskState, claimId: string, change: Partial<ClaimState>): TaskState => {
  const claim = state.claims.get(claimId);
  if (!claim) return state;
  return { ...state, claims: state.claims.with(claimId, { ...claim, ...change }) };
};

/** A tombstone names its claim by ref: the claim it buries, if this state still holds it. */
const withoutClaim = (state: TaskState, ref: string): TaskState => {
  const id = state.claimByRef.get(ref);
  return {
    ...state,
    claims: id === undefined ? state.claims : state.claims.with(id, undefined),
    claimByRef: id === undefined ? state.claimByRef : state.claimByRef.with(ref, undefined),
    deleted_claims: state.deleted_claims.with(ref, true),
  };
};

/** A task's tombstone: its claims and candidates go, the refs it names are deleted ones. */
const buried = (state: TaskState, refs: readonly string[]): TaskState => {
  let deleted_claims = state.deleted_claims;
  for (const ref of refs) deleted_claims = deleted_claims.with(ref, true);
  return {
    ...state,
    deleted: true,
    claims: PersistentMap.empty(),
    claimByRef: PersistentMap.empty(),
    candidates: PersistentMap.empty(),
    deleted_claims,
  };
};

/**
 * Folds one event into a new state; the state it is given is never changed (the log may keep a
 * folded state and hand it to the next load). A shredded event (its claim deleted) reads with
 * empty data and changes nothing; its tombstone follows it in the stream.
 */
export const evolveTask = (state: TaskState, event: IntentEvent): TaskState => {
  if (Object.keys(event.data).length === 0) return state;
  switch (event.type) {
    case 'intent.task_started':
      return {
        ...state,
        exists: true,
        project_id: event.data.project_id,
        task_id: event.data.task_id,
        owner: event.metadata?.actorId ?? '',
        started_at: event.data.started_at,
        host_session_hash: event.data.host_session_hash,
      };
    case 'intent.session_associated':
      return { ...state, host_session_hash: event.data.host_session_hash };
    case 'intent.claim_added':
      return addClaim(state, event.data.claim, event.metadata?.seal);
    case 'intent.claim_invalidated':
      return changeClaim(state, event.data.claim_id, { life: 'invalidated' });
    case 'intent.claim_promoted':
      return changeClaim(state, event.data.claim_id, { promoted: true });
    case 'intent.claim_deleted':
      return withoutClaim(state, event.data.claim_ref);
    case 'intent.task_deleted':
      // its other events are shredded with it (sealed under the task): the tombstone alone
      // says the task existed
      return buried(
        { ...state, exists: true, project_id: event.data.project_id },
        event.data.claim_refs,
      );
    case 'intent.mode_set':
      return { ...state, mode: event.data.mode, marker_hash: event.data.marker_hash };
    case 'intent.candidate_recorded': {
      const { candidate_id, origin, hook_event, sha256, recorded_at } = event.data;
      const candidate = { candidate_id, origin, hook_event, sha256, recorded_at };
      return { ...state, candidates: state.candidates.with(candidate_id, candidate) };
    }
    case 'intent.import_recorded':
      return { ...state, imports: state.imports + 1 };
    case 'intent.recovery_flagged':
      return { ...state, recovery: { state: event.data.state, flagged_at: event.data.flagged_at } };
    case 'intent.recovery_served':
      return { ...state, recovery: null };
  }
};

/** A user-explicit claim: only the user's own direct word may displace it. */
export const isUserExplicit = (claim: ClaimState): boolean =>
  claim.body.epistemic_status === 'explicit';

// Snapshots of a task: its claims, candidates and graph (src/commands/snapshots.ts): bump `version` whenever evolveTask or the state's
// shape changes, so snapshots of the old fold are ignored and streams folded again.
Snapshots.declare({
  name: 'intent.task',
  version: 1,
  evolve: evolveTask,
  initialState: initialTask,
});
