import type { ClaimBody, SourceKind } from '../../events/intent/index.js';
import { intentError } from './errors.js';
import { isUserExplicit, type ClaimState, type TaskState } from './task-state.js';

/**
 * The legal shapes of a claim, by epistemic status (contracts/intent.md, "Mutating-tool
 * invariants"): only an inference carries model confidence; a user-explicit claim comes from
 * a user event; tool and external results stay evidence; an unknown may name the decision it
 * affects (intent-loop's unknowns leave it out); only evidence carries a feedback class; a
 * dispute references two or more claims or none (free-standing).
 */
const EVIDENCE_SOURCES: readonly SourceKind[] = [
  'tool_result',
  'external_evidence',
  'user_event',
  'explicit_import',
];

const fail = (message: string, details: Record<string, unknown> = {}) => {
  throw intentError('INVALID_ARGUMENT', message, details);
};

export const checkShape = (claim: ClaimBody): void => {
  const { epistemic_status: status, source_ref, confidence, basis } = claim;
  if (status === 'inferred' && confidence === null)
    fail('an inferred claim needs a numeric confidence');
  if (status !== 'inferred' && confidence !== null)
    fail('only an inferred claim accepts model confidence', { epistemic_status: status });
  if (status === 'explicit' && basis === null)
    fail('a user-explicit claim needs basis direct_statement or confirmed_candidate');
  if (status !== 'explicit' && basis !== null) fail('only a user-explicit claim has a basis');
  if (status === 'explicit' && !['user_event', 'explicit_import'].includes(source_ref.kind))
    throw intentError(
      'AUTHORITY_VIOLATION',
      'a user-explicit claim needs a user-event source; tool and external results are evidence',
      { source_kind: source_ref.kind },
    );
  if (status === 'evidence' && !EVIDENCE_SOURCES.includes(source_ref.kind))
    fail('evidence comes from a tool result, external evidence or user result feedback');
  if (status !== 'evidence' && claim.feedback_class !== undefined)
    fail('only evidence carries a feedback_class (result feedback)');
  if (status === 'disputed' && claim.disputes.length === 1)
    fail('a dispute references two or more claims, or none for a free-standing disagreement');
  if (status !== 'disputed' && claim.disputes.length > 0)
    fail('only a dispute references disputed claims');
  if (source_ref.event_id === null && source_ref.sha256 === null)
    fail('a source names an event_id or a sha256 of what it came from');
};

/** Claims a new claim refers to must be present (not deleted) in the same task. */
export const checkReferences = (known: (id: string) => boolean, claim: ClaimBody): void => {
  if (new Set(claim.disputes).size !== claim.disputes.length)
    fail('a dispute names each claim once');
  for (const id of [...claim.disputes, ...claim.supersedes])
    if (!known(id))
      throw intentError('CLAIM_NOT_FOUND', 'a referenced claim is not in this task', {
        claim_id: id,
      });
};

/** The claim, active, in this task; else the contract's error. */
export const activeClaim = (state: TaskState, claimId: string): ClaimState => {
  const claim = state.claims.get(claimId);
  if (!claim)
    throw intentError('CLAIM_NOT_FOUND', 'no such claim in this task', { claim_id: claimId });
  if (claim.life !== 'active')
    throw intentError('CLAIM_NOT_ACTIVE', `the claim is ${claim.life}`, {
      claim_id: claimId,
      life: claim.life,
      superseded_by: claim.superseded_by,
    });
  return claim;
};

/** A user-explicit claim is replaced only by direct user-explicit input. */
export const checkReplacementAuthority = (target: ClaimState, replacement: ClaimBody): void => {
  if (!isUserExplicit(target)) return;
  const direct =
    replacement.epistemic_status === 'explicit' &&
    replacement.basis === 'direct_statement' &&
    replacement.source_ref.kind === 'user_event';
  if (!direct)
    throw intentError(
      'AUTHORITY_VIOLATION',
      'a user-explicit claim can be replaced only by a direct user-explicit statement',
      { claim_id: target.body.claim_id },
    );
};

/** A user-explicit claim is invalidated only by a direct user event. */
export const checkInvalidationAuthority = (target: ClaimState, source: SourceKind): void => {
  if (isUserExplicit(target) && source !== 'user_event')
    throw intentError(
      'AUTHORITY_VIOLATION',
      'a user-explicit claim can be invalidated only by a direct user event',
      { claim_id: target.body.claim_id, source_kind: source },
    );
};
