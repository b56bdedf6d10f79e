import { z } from 'zod';
import { defineEvent } from '../catalog/define.js';

/**
 * The intent context (contracts/intent.md): what the user of a coding task wants, as claims
 * with provenance. One stream per task holds the task, its claims, their supersession,
 * invalidation and deletion, so every rule between claims is decided against one version.
 * Event types are prefixed `intent.` because `claim` is a word other contexts use too.
 *
 * A claim's semantic content (statement, excerpt, reason) lives only in events sealed under the
 * claim's own subject (`intent-claim:<claim_id>`), so deleting a claim is shredding its key.
 */
/** A claim's events and read-model values are sealed under this subject: deleting it shreds it. */
export const claimSubject = (claimId: string): string => `intent-claim:${claimId}`;

export const EpistemicStatus = z.enum(['explicit', 'inferred', 'evidence', 'unknown', 'disputed']);
export type EpistemicStatus = z.infer<typeof EpistemicStatus>;

export const SourceKind = z.enum([
  'user_event',
  'agent_turn',
  'tool_result',
  'external_evidence',
  'explicit_import',
]);
export type SourceKind = z.infer<typeof SourceKind>;

export const ClaimScope = z.enum(['task', 'project', 'long_term']);
export type ClaimScope = z.infer<typeof ClaimScope>;

/** What part of the intent a claim speaks to. */
export const ClaimRole = z.enum([
  'goal',
  'constraint',
  'preference',
  'context',
  'decision',
  'result',
  'question',
]);
export type ClaimRole = z.infer<typeof ClaimRole>;

export const Facet = z.enum([
  'outcome',
  'success_signal',
  'failure_signal',
  'hard_constraint',
  'soft_constraint',
  'tradeoff',
  'unknown',
  'result_feedback',
  'disagreement',
]);
export type Facet = z.infer<typeof Facet>;

/** How a user-explicit claim came from the user: said outright, or a candidate they confirmed. */
export const ExplicitBasis = z.enum(['direct_statement', 'confirmed_candidate']);
export type ExplicitBasis = z.infer<typeof ExplicitBasis>;

export const IntentMode = z.enum(['on', 'private', 'off']);
export type IntentMode = z.infer<typeof IntentMode>;

export const SourceRef = z.object({
  kind: SourceKind,
  event_id: z.string().nullable(),
  sha256: z.string().nullable(),
  /** redacted, at most 160 characters */
  excerpt: z.string().max(160).nullable(),
});
export type SourceRef = z.infer<typeof SourceRef>;

/** Everything a claim is; sealed under the claim's subject. */
export const ClaimBody = z.object({
  claim_id: z.string(),
  statement: z.string().min(1).max(500),
  role: ClaimRole,
  epistemic_status: EpistemicStatus,
  source_ref: SourceRef,
  basis: ExplicitBasis.nullable(),
  scope: ClaimScope,
  confidence: z.number().min(0).max(1).nullable(),
  facets: z.array(Facet),
  /** unknowns: the decision the unknown affects */
  affects_decision: z.string().max(500).nullable(),
  /** disputes: the claims in disagreement (empty for a free-standing disagreement) */
  disputes: z.array(z.string()),
  supersedes: z.array(z.string()),
  /** a long-term inference waiting for the three-task plus confirmation rule */
  candidate: z.boolean(),
  /** the import that brought it, if any: external history, labelled incomplete */
  import_id: z.string().nullable(),
  valid_from: z.string(),
});
export type ClaimBody = z.infer<typeof ClaimBody>;

const onTask = { project_id: z.string(), task_id: z.string() };

export const IntentTaskStarted = defineEvent(
  'intent.task_started',
  z.object({ ...onTask, host_session_hash: z.string().nullable(), started_at: z.string() }),
);
export const IntentClaimAdded = defineEvent(
  'intent.claim_added',
  z.object({ ...onTask, claim: ClaimBody }),
);
export const IntentClaimInvalidated = defineEvent(
  'intent.claim_invalidated',
  z.object({
    ...onTask,
    claim_id: z.string(),
    reason: z.string().max(500),
    source_ref: SourceRef,
    invalidated_at: z.string(),
  }),
);
/** The user confirmed a long-term candidate after it recurred in three distinct tasks. */
export const IntentClaimPromoted = defineEvent(
  'intent.claim_promoted',
  z.object({
    ...onTask,
    claim_id: z.string(),
    recurrence_tasks: z.array(z.string()),
    confirmation_event_id: z.string().nullable(),
    promoted_at: z.string(),
  }),
);
/** The tombstone of a deleted claim: its subject's key was destroyed with it. */
export const IntentClaimDeleted = defineEvent(
  'intent.claim_deleted',
  z.object({ ...onTask, claim_id: z.string(), deleted_at: z.string() }),
);
export const IntentTaskDeleted = defineEvent(
  'intent.task_deleted',
  z.object({
    ...onTask,
    claim_ids: z.array(z.string()),
    candidate_ids: z.array(z.string()),
    deleted_at: z.string(),
  }),
);
/** `marker_hash`: in private mode, a hash of the host session token, never the token. */
export const IntentModeSet = defineEvent(
  'intent.mode_set',
  z.object({ ...onTask, mode: IntentMode, marker_hash: z.string().nullable(), set_at: z.string() }),
);
/** A Hook/result/history candidate: only ids, hashes and metadata, never content. */
export const IntentCandidateRecorded = defineEvent(
  'intent.candidate_recorded',
  z.object({
    ...onTask,
    candidate_id: z.string(),
    origin: z.enum(['hook', 'result', 'history']),
    hook_event: z.string().nullable(),
    event_id: z.string().nullable(),
    sha256: z.string(),
    recorded_at: z.string(),
  }),
);
export const IntentImportRecorded = defineEvent(
  'intent.import_recorded',
  z.object({
    ...onTask,
    import_id: z.string(),
    format_version: z.number().int(),
    claim_count: z.number().int(),
    /** always true: an import is external history, never the whole of it */
    incomplete_history: z.literal(true),
    imported_at: z.string(),
  }),
);
/**
 * `hook post-compact` checked the task's state after the host compacted its context: the next
 * SessionStart tells the agent to reread the task (`verified`: the state read back whole).
 */
export const IntentRecoveryFlagged = defineEvent(
  'intent.recovery_flagged',
  z.object({ ...onTask, state: z.enum(['verified', 'unverified']), flagged_at: z.string() }),
);
/** A SessionStart told the agent to recover the task: the flag is down. */
export const IntentRecoveryServed = defineEvent(
  'intent.recovery_served',
  z.object({ ...onTask, served_at: z.string() }),
);

export const intentEvents = [
  IntentTaskStarted,
  IntentClaimAdded,
  IntentClaimInvalidated,
  IntentClaimPromoted,
  IntentClaimDeleted,
  IntentTaskDeleted,
  IntentModeSet,
  IntentCandidateRecorded,
  IntentImportRecorded,
  IntentRecoveryFlagged,
  IntentRecoveryServed,
];
