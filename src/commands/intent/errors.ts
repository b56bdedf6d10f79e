import { domainError, type DomainError } from '../errors.js';

/**
 * The intent contract's own error codes (contracts/intent.md, NOTES.md). Every error carries
 * `code` and `retryable` in its details, as the public implementation's errors do.
 */
export const IntentCode = {
  PROJECT_ROOT_METADATA_INVALID: false,
  PROJECT_ROOT_MISMATCH: false,
  PROJECT_ROOT_REQUIRED: false,
  PROJECT_ROOT_INVALID: false,
  REQUEST_ID_REUSED: false,
  INVALID_ARGUMENT: false,
  AUTHORITY_VIOLATION: false,
  TASK_NOT_FOUND: false,
  TASK_PROJECT_MISMATCH: false,
  TASK_DELETED: false,
  CLAIM_NOT_FOUND: false,
  CLAIM_NOT_ACTIVE: false,
  CONFIRMATION_MISMATCH: false,
  PRIVATE_STATE_UNAVAILABLE: false,
  MODE_CHANGED: true,
  PRIVATE_TOKEN_REQUIRED: false,
  IMPORT_INVALID: false,
  // intent-loop v0.2's codes for refusals the contract names no code for (docs/intent.md)
  INVALID_SOURCE: false,
  RAW_PROMPT_REJECTED: false,
  SENSITIVE_ID_REJECTED: false,
  INVALID_REQUEST_ID: false,
  PRIVATE_TASK_OWNED: false,
  LONG_TERM_CONFIRMATION_REQUIRED: false,
  MODE_OFF_SEMANTIC_INPUT: false,
  EXPLICIT_SOURCE_REQUIRED: false,
  CONFIDENCE_REQUIRED: false,
  CONFIDENCE_NOT_ALLOWED: false,
  LOCK_TIMEOUT: true,
  CORRUPT_LEDGER: false,
  INTERNAL_ERROR: true,
} as const satisfies Record<string, boolean>;
export type IntentCode = keyof typeof IntentCode;

/** An intent domain error: the contract's code, with `code` and `retryable` in its details. */
export const intentError = (
  code: IntentCode,
  message: string,
  details: Record<string, unknown> = {},
): DomainError =>
  domainError(code, message, {
    ...details,
    code,
    retryable: IntentCode[code],
  });

/**
 * A task the caller cannot reach: one that does not exist, and, said the same way, one another
 * principal owns (the answer never tells the two apart).
 */
export const taskNotFound = (): DomainError =>
  intentError('TASK_NOT_FOUND', 'no such task in this project');
