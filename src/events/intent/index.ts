import { createHash } from 'node:crypto';
import { z } from 'zod';
import { addVersion, defineEvent } from '../catalog/define.js';

/**
 * The intent context (contracts/intent.md): what the user of a coding task wants, as claims
 * with provenance. One stream per task holds the task, its claims, their supersession,
 * invalidation and deletion, so every rule between claims is decided against one version.
 * Event types are prefixed `intent.` because `claim` is a word other contexts use too.
 *
 * A claim's semantic content (statement, excerpt, reason) lives only in events sealed under the
 * claim's own subject, so deleting a claim is shredding its key.
 *
 * A claim id is never stored in clear outside sealed content (issue 33): where the disk needs
 * to name a claim (a seal subject and so a key's name, a tombstone, a read-model key) it holds
 * the claim's ref instead, so once the claim's key is shredded its id is in no file.
 */

/**
 * A claim's ref: what the disk holds in place of its id. A domain-separated SHA-256 (22
 * base64url characters, 132 bits), not a keyed one: a key would sit in the same data dir, so
 * it hides nothing from a reader of the disk, and an unkeyed ref keeps deciders, upcasters and
 * folds pure and the same in every data dir (docs/decisions.md). Claim ids are random UUIDs,
 * so the ref does not give the id back.
 */
export const intentRef = (id: string): string =>
  createHash('sha256')
    .update(`intentlog/intent-ref/v1\u0000${id}`)
    .digest('base64url')
    .slice(0, 22);

/** A claim's events and read-model values are sealed under this subject: deleting it shreds it. */
export const claimSubject = (claimId: string): string => `intent-claim-ref:${intentRef(claimId)}`;
/**
 * A task's subject: its events but claims' are sealed under it (task_started holds the id, the
 * snapshot's head too), so a task delete that shreds it leaves the id in no file.
 */
export const taskRefSubject = (ref: string): string => `intent-task-ref:${ref}`;
export const taskSubject = (taskId: string): string => taskRefSubject(intentRef(taskId));
/** The subject claims were sealed under before refs: the log still holds such claims. */
export const legacyClaimSubject = (claimId: string): string => `intent-claim:${claimId}`;

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

/** Result feedback's class (intent-loop's `/intent feedback`): what the user's reaction means. */
export const FeedbackClass = z.enum([
  'keep',
  'implementation_change',
  'intent_change',
  'uncertain',
]);
export type FeedbackClass = z.infer<typeof FeedbackClass>;

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
  /**
   * long-term candidates: what makes two of them the same preference across tasks (the
   * caller's opaque key; without one, the normalised statement). Absent on older claims.
   */
  signal_key: z.string().max(200).optional(),
  /** evidence of result feedback: keep, implementation_change, intent_change or uncertain */
  feedback_class: FeedbackClass.optional(),
});
export type ClaimBody = z.infer<typeof ClaimBody>;

const onTask = { project_id: z.string(), task_id: z.string() };
/** A tombstone's task: by ref (intentRef), since a tombstone is never sealed. */
const byRef = { project_id: z.string(), task_ref: z.string() };
const toRef = <D extends { task_id: string }>({ task_id, ...rest }: D) => ({
  ...rest,
  task_ref: intentRef(task_id),
});

export const IntentTaskStarted = defineEvent(
  'intent.task_started',
  z.object({ ...onTask, host_session_hash: z.string().nullable(), started_at: z.string() }),
);
/**
 * A start named an existing task with another host session: that session now feeds the task
 * (its Hooks land there), and the session the task had before no longer does.
 */
export const IntentSessionAssociated = defineEvent(
  'intent.session_associated',
  z.object({ ...onTask, host_session_hash: z.string(), associated_at: z.string() }),
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
/**
 * The user confirmed a long-term candidate after it recurred in three distinct tasks. Sealed
 * under the candidate's subject (before refs: in clear), so it goes with the candidate.
 */
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
/**
 * The tombstone of a deleted claim: its subject's key was destroyed with it. v1 named the claim
 * by its id; v2 by its ref, so no tombstone written since holds the id it buries; v3 names its
 * task by ref: a tombstone is in clear (the other events are sealed) and outlives the task.
 */
export const IntentClaimDeleted = addVersion(
  addVersion(
    defineEvent(
      'intent.claim_deleted',
      z.object({ ...onTask, claim_id: z.string(), deleted_at: z.string() }),
    ),
    z.object({ ...onTask, claim_ref: z.string(), deleted_at: z.string() }),
    ({ claim_id, ...v1 }) => ({ ...v1, claim_ref: intentRef(claim_id) }),
  ),
  z.object({ ...byRef, claim_ref: z.string(), deleted_at: z.string() }),
  toRef,
);
/** v1 listed the task's claim ids; v2 their refs; v3 names the task by ref too. */
export const IntentTaskDeleted = addVersion(
  addVersion(
    defineEvent(
      'intent.task_deleted',
      z.object({
        ...onTask,
        claim_ids: z.array(z.string()),
        candidate_ids: z.array(z.string()),
        deleted_at: z.string(),
      }),
    ),
    z.object({
      ...onTask,
      claim_refs: z.array(z.string()),
      candidate_ids: z.array(z.string()),
      deleted_at: z.string(),
    }),
    ({ claim_ids, ...v1 }) => ({ ...v1, claim_refs: claim_ids.map(intentRef) }),
  ),
  z.object({
    ...byRef,
    claim_refs: z.array(z.string()),
    candidate_ids: z.array(z.string()),
    deleted_at: z.string(),
  }),
  toRef,
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
  IntentSessionAssociated,
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
