/**
 * The one domain error. Codes are stable and part of the tool contracts; messages may change.
 * Callers branch on `code`, never on `message`. The kernel's own codes are below; each contract
 * adds its own (`VERSION_CONFLICT`, `lease_expired`, `PROJECT_ROOT_REQUIRED`, …) as plain
 * strings, declared by its module, so one error type carries every contract's vocabulary.
 */
export const ErrorCode = {
  forbidden: 'forbidden',
  not_found: 'not_found',
  invalid_argument: 'invalid_argument',
  invalid_state: 'invalid_state',
  conflict: 'conflict',
  not_configured: 'not_configured',
  unavailable: 'unavailable',
  internal: 'internal',
} as const;
/** A kernel code: what the shared layers (store, command path, adapter) raise. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const isDomainError = (error: unknown): error is DomainError =>
  error instanceof DomainError ||
  (error instanceof Error &&
    error.name === 'DomainError' &&
    typeof (error as { code?: unknown }).code === 'string');

/** An error with a contract's own code. */
export const domainError = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, message, details);

export const forbidden = (message: string, details?: Record<string, unknown>) =>
  new DomainError('forbidden', message, details);
export const notFound = (message: string, details?: Record<string, unknown>) =>
  new DomainError('not_found', message, details);
export const invalidArgument = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid_argument', message, details);
export const invalidState = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid_state', message, details);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', message, details);
export const unavailable = (message: string, details?: Record<string, unknown>) =>
  new DomainError('unavailable', message, details);
