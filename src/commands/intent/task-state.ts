import type { EventOf } from '../../events/index.js';
import type {
  ClaimBody,
  IntentCandidateRecorded,
  IntentClaimAdded,
  IntentClaimDeleted,
  IntentClaimInvalidated,
  IntentClaimPromoted,
  IntentImportRecorded,
  IntentMode,
  IntentModeSet,
  IntentTaskDeleted,
  IntentTaskStarted,
} from '../../events/catalog/intent.js';

export type IntentEvent =
  | EventOf<typeof IntentTaskStarted>
  | EventOf<typeof IntentClaimAdded>
  | EventOf<typeof IntentClaimInvalidated>
  | EventOf<typeof IntentClaimPromoted>
  | EventOf<typeof IntentClaimDeleted>
  | EventOf<typeof IntentTaskDeleted>
  | EventOf<typeof IntentModeSet>
  | EventOf<typeof IntentCandidateRecorded>
  | EventOf<typeof IntentImportRecorded>;

/** Where a claim stands: current, or left the projection (and why). */
export type ClaimLife = 'active' | 'superseded' | 'invalidated';

export type ClaimState = {
  body: ClaimBody;
  life: ClaimLife;
  superseded_by: string | null;
  promoted: boolean;
};

export type CandidateState = {
  candidate_id: string;
  origin: 'hook' | 'result' | 'history';
  hook_event: string | null;
  sha256: string;
  recorded_at: string;
};

/** One task of one project: the aggregate every claim rule is decided against. */
export type TaskState = {
  exists: boolean;
  deleted: boolean;
  project_id: string;
  task_id: string;
  started_at: string;
  mode: IntentMode;
  marker_hash: string | null;
  /** by claim id, in the order they were added; a deleted claim is gone from here */
  claims: Map<string, ClaimState>;
  /** ids of claims that were deleted (their tombstones) */
  deleted_claims: Set<string>;
  candidates: Map<string, CandidateState>;
  imports: string[];
};

export const initialTask = (): TaskState => ({
  exists: false,
  deleted: false,
  project_id: '',
  task_id: '',
  started_at: '',
  mode: 'on',
  marker_hash: null,
  claims: new Map(),
  deleted_claims: new Set(),
  candidates: new Map(),
  imports: [],
});

const addClaim = (state: TaskState, body: ClaimBody): void => {
  state.claims.set(body.claim_id, { body, life: 'active', superseded_by: null, promoted: false });
  for (const old of body.supersedes) {
    const target = state.claims.get(old);
    if (target)
      state.claims.set(old, { ...target, life: 'superseded', superseded_by: body.claim_id });
  }
};

const setLife = (state: TaskState, claimId: string, change: Partial<ClaimState>): void => {
  const claim = state.claims.get(claimId);
  if (claim) state.claims.set(claimId, { ...claim, ...change });
};

/**
 * Folds one event into the state. A task may hold thousands of claims, so the fold extends the
 * state it is given instead of copying its maps per event: every fold starts from a fresh
 * `initialTask()`, and no state is shared between folds. A shredded event (its claim deleted)
 * reads with empty data and changes nothing; its tombstone follows it in the stream.
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
      };
    case 'intent.claim_added':
      addClaim(state, event.data.claim);
      return state;
    case 'intent.claim_invalidated':
      setLife(state, event.data.claim_id, { life: 'invalidated' });
      return state;
    case 'intent.claim_promoted':
      setLife(state, event.data.claim_id, { promoted: true });
      return state;
    case 'intent.claim_deleted':
      state.claims.delete(event.data.claim_id);
      state.deleted_claims.add(event.data.claim_id);
      return state;
    case 'intent.task_deleted':
      for (const id of event.data.claim_ids) state.deleted_claims.add(id);
      state.claims.clear();
      state.candidates.clear();
      return { ...state, deleted: true };
    case 'intent.mode_set':
      return { ...state, mode: event.data.mode, marker_hash: event.data.marker_hash };
    case 'intent.candidate_recorded': {
      const { candidate_id, origin, hook_event, sha256, recorded_at } = event.data;
      state.candidates.set(candidate_id, { candidate_id, origin, hook_event, sha256, recorded_at });
      return state;
    }
    case 'intent.import_recorded':
      state.imports.push(event.data.import_id);
      return state;
  }
};

export const activeClaims = (state: TaskState): ClaimState[] =>
  [...state.claims.values()].filter((c) => c.life === 'active');

/** A user-explicit claim: only the user's own direct word may displace it. */
export const isUserExplicit = (claim: ClaimState): boolean =>
  claim.body.epistemic_status === 'explicit';
