import { z } from 'zod';
import type { ClaimInput } from '../../commands/intent/claim-input.js';
import { intentError } from '../../commands/intent/errors.js';
import { redactSecrets } from '../../commands/intent/redact.js';
import type { Facet } from '../../events/intent/index.js';
import {
  ClaimScope,
  EpistemicStatus,
  ExplicitBasis,
  FeedbackClass,
  type SourceRef,
} from '../../events/intent/index.js';
import * as S from './schemas.js';

/**
 * intent-loop v0.2's argument shapes (docs/intent.md, "intent-loop's forms"), accepted beside
 * this surface's own: a client or Skill written for intent-loop calls the same tools unchanged.
 * Each pair of names for one thing is exclusive: a call names it one way, never both.
 */

const invalid = (message: string, details: Record<string, unknown> = {}) =>
  intentError('INVALID_ARGUMENT', message, details);

/** The one of two alias fields a call gave (both is an error; neither is `undefined`). */
export const oneOf = <T>(
  ours: [string, T | undefined],
  theirs: [string, T | undefined],
): T | undefined => {
  if (ours[1] !== undefined && theirs[1] !== undefined)
    throw invalid(`give ${ours[0]} or ${theirs[0]}, not both`, { fields: [ours[0], theirs[0]] });
  return ours[1] ?? theirs[1];
};

/** An initial claim as intent-loop takes it: a string (a task hard constraint) or a triple. */
export const InitialExplicit = z
  .array(
    z.union([
      z.strictObject({ statement: S.Statement, scope: ClaimScope.optional(), facets: S.Facets }),
      S.Statement,
    ]),
  )
  .max(12)
  .optional()
  .describe('what the user said: strings (task hard constraints) or {statement, scope, facets}');
export type InitialExplicit = NonNullable<z.output<typeof InitialExplicit>>;

/**
 * The claims of an `initial_explicit`: user-explicit, said directly, sourced by the start
 * itself. The source id is the start's request_id when it has one, so a retry fingerprints
 * the same.
 */
export const initialClaims = (initial: InitialExplicit, startRef: string): ClaimInput[] =>
  initial.map((c) => {
    const claim = typeof c === 'string' ? { statement: c } : c;
    const facets: Facet[] = typeof c === 'string' ? ['hard_constraint'] : c.facets;
    return {
      epistemic_status: 'explicit',
      basis: 'direct_statement',
      statement: claim.statement,
      scope: typeof c === 'string' ? 'task' : c.scope,
      facets,
      ...(typeof c === 'string' ? { role: 'constraint' as const } : {}),
      source_ref: { kind: 'user_event', event_id: startRef },
    };
  });

/** A task label: one line of at most 120 characters once redacted; echoed, never stored. */
export const Label = z.string().max(500).optional().describe('a short label, echoed, not stored');
export const checkLabel = (label: string | undefined): string | null => {
  if (label === undefined || label.trim() === '') return null;
  const { text } = redactSecrets(label.trim());
  if (text.length > 120 || /[\r\n]/.test(text))
    throw invalid('a task label is one line of at most 120 characters', { field: 'label' });
  return text;
};

/** intent-loop's flat `intent_replace_claim`: the new claim's fields beside `supersedes`. */
export const flatReplacement = {
  replacement_kind: EpistemicStatus.optional().describe('the new claim’s kind'),
  statement: S.Statement.optional(),
  source_ref: S.AnySource.optional(),
  confidence: z.number().min(0).max(1).optional(),
  confirmation_reason: ExplicitBasis.optional(),
  related_claim_ids: z.array(S.ClaimId).max(50).optional(),
  affects_decision: z.string().trim().min(1).max(2000).optional(),
  feedback_class: FeedbackClass.optional(),
  ...S.claimFields,
};

type Flat = { [K in keyof typeof flatReplacement]?: z.output<(typeof flatReplacement)[K]> };

/** The new claim of a replacement, from either form (nested `claim`, or flat). */
export const replacementOf = (
  nested: z.output<typeof S.ClaimSpec> | undefined,
  flat: Flat,
): ClaimInput => {
  const flatGiven = Object.values(flat).some((v) => v !== undefined);
  if (nested && flatGiven)
    throw invalid('give the replacement as claim or as flat fields, not both');
  if (nested) return nested;
  const { replacement_kind: status, statement, source_ref } = flat;
  if (!status || !statement || !source_ref)
    throw invalid('a replacement needs claim, or replacement_kind, statement and source_ref');
  if (status === 'explicit' && (source_ref.kind !== 'user_event' || !flat.confirmation_reason))
    throw intentError(
      'EXPLICIT_SOURCE_REQUIRED',
      'an explicit replacement needs a user_event source and a confirmation_reason',
    );
  if (status === 'inferred' && flat.confidence === undefined)
    throw intentError('CONFIDENCE_REQUIRED', 'an inferred replacement needs a confidence');
  if (status !== 'inferred' && flat.confidence !== undefined)
    throw intentError('CONFIDENCE_NOT_ALLOWED', 'only an inferred claim accepts confidence');
  return {
    epistemic_status: status,
    statement,
    source_ref,
    basis: flat.confirmation_reason,
    confidence: flat.confidence,
    affects_decision: flat.affects_decision,
    disputes: status === 'disputed' ? (flat.related_claim_ids ?? []) : undefined,
    feedback_class: flat.feedback_class,
    role: flat.role,
    scope: flat.scope,
    facets: flat.facets,
  };
};

/** intent-loop's `intent_delete {target}`: it must agree with whether a claim_id is named. */
export const checkTarget = (target: 'task' | 'claim' | undefined, claimId: string | undefined) => {
  if (target === 'claim' && claimId === undefined)
    throw invalid('target claim needs the claim_id', { field: 'claim_id' });
  if (target === 'task' && claimId !== undefined)
    throw invalid('target task deletes the whole task: leave out claim_id', { field: 'target' });
};

export type { SourceRef };
