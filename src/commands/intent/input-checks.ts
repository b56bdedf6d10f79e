import type { SourceKind } from '../../events/intent/index.js';
import { intentError } from './errors.js';
import { redactSecrets } from './redact.js';

/**
 * Ids a caller chooses (`request_id`, a source's `event_id`) are stored as they are, outside
 * any claim's shredding key, so they must be opaque: a short run of id characters, never a
 * path, free text or a credential (intent-loop's validation, docs/intent.md).
 */
const OPAQUE = /^[A-Za-z0-9_.:@-]{1,200}$/;

const credentialShaped = (value: string) => redactSecrets(value).redactions > 0;

export const checkRequestId = (requestId: string | undefined): void => {
  if (requestId === undefined) return;
  if (!OPAQUE.test(requestId))
    throw intentError('INVALID_REQUEST_ID', 'request_id must be 1-200 opaque characters', {
      field: 'request_id',
    });
  if (credentialShaped(requestId))
    throw intentError(
      'SENSITIVE_ID_REJECTED',
      'request_id must not contain a credential or access token',
      { field: 'request_id' },
    );
};

/** A source a tool accepts: of a kind it allows, with an opaque event id. */
export const checkSource = (
  source: { kind: SourceKind; event_id?: string | null | undefined },
  allowed?: readonly SourceKind[],
): void => {
  if (allowed && !allowed.includes(source.kind))
    throw intentError(
      'INVALID_SOURCE',
      `a ${source.kind} source is not allowed here (allowed: ${allowed.join(', ')})`,
      { source_kind: source.kind },
    );
  const id = source.event_id;
  if (id === undefined || id === null) return;
  if (!OPAQUE.test(id))
    throw intentError(
      'INVALID_SOURCE',
      'source_ref.event_id must be an opaque id, not a path or free text',
      { field: 'source_ref.event_id' },
    );
  if (credentialShaped(id))
    throw intentError(
      'SENSITIVE_ID_REJECTED',
      'source_ref.event_id must not contain a credential or access token',
      { field: 'source_ref.event_id' },
    );
};

/** Longer than this, a "statement" is a pasted prompt or transcript, not one atomic claim. */
export const STATEMENT_INPUT_MAX = 4000;

/**
 * A statement is one atomic claim: one line, at most 4,000 characters before its 500-character
 * cap. A multi-line or longer text is a prompt or a transcript, and is refused, never stored
 * cut (intent-loop's RAW_PROMPT_REJECTED).
 */
export const checkStatement = (statement: string, field = 'statement'): void => {
  if (statement.length > STATEMENT_INPUT_MAX)
    throw intentError('RAW_PROMPT_REJECTED', 'too long for one atomic intent claim', { field });
  if (/[\r\n\u2028\u2029]/.test(statement.trim()))
    throw intentError('RAW_PROMPT_REJECTED', 'an atomic intent claim is a single line', {
      field,
    });
};

/** A claim a caller sends: its statement, its source, and the source kinds the tool allows. */
export const checkClaimInput = (
  input: { statement: string; source_ref: { kind: SourceKind; event_id?: string | undefined } },
  allowed?: readonly SourceKind[],
): void => {
  checkStatement(input.statement);
  checkSource(input.source_ref, allowed);
};
