import { EmmettError, ExpectedVersionConflictError } from '@event-driven-io/emmett';
import { z } from 'zod';
import { CatalogError } from '../catalog/catalog.js';
import { IdempotencyReplayError, type IdempotencyRecord } from '../event-log.js';

/** The writer went away (socket closed) before answering: the call is retried on the next one. */
export class WriterLostError extends Error {
  readonly code = 'writer_lost';
  constructor() {
    super('the writer process went away');
  }
}

/** The log was closed by this process; nothing more will be answered. */
export class LogClosedError extends Error {
  readonly code = 'log_closed';
  constructor() {
    super('the event log is closed');
  }
}

/**
 * An error as it crosses the socket. `kind` names the class the follower re-creates, so a caller
 * cannot tell a remote conflict, idempotency replay or catalog error from a local one.
 */
export const WireError = z.object({
  kind: z.enum(['version_conflict', 'idempotency_replay', 'catalog', 'emmett', 'type', 'error']),
  message: z.string(),
  code: z.string().optional(),
  errorCode: z.number().optional(),
  current: z.string().optional(),
  expected: z.string().optional(),
  record: z.unknown().optional(),
  /** an error class of an upper layer (DomainError): its name and details travel as they are */
  name: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type WireError = z.infer<typeof WireError>;

const codeOf = (error: Error): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

const detailsOf = (error: Error): Record<string, unknown> | undefined => {
  const details = (error as { details?: unknown }).details;
  return details !== null && typeof details === 'object' && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : undefined;
};

export const toWireError = (error: unknown): WireError => {
  if (!(error instanceof Error)) return { kind: 'error', message: String(error) };
  const { message } = error;
  if (error instanceof ExpectedVersionConflictError)
    return { kind: 'version_conflict', message, current: error.current, expected: error.expected };
  if (error instanceof IdempotencyReplayError)
    return { kind: 'idempotency_replay', message, record: error.record };
  if (error instanceof CatalogError) return { kind: 'catalog', message };
  if (error instanceof EmmettError) return { kind: 'emmett', message, errorCode: error.errorCode };
  if (error instanceof TypeError) return { kind: 'type', message };
  // Any other error keeps its name, code and details: a DomainError thrown on the writer
  // (name `DomainError`, a string code, details) is one on the follower too (isDomainError).
  return {
    kind: 'error',
    message,
    code: codeOf(error),
    name: error.name === 'Error' ? undefined : error.name,
    details: detailsOf(error),
  };
};

/** Re-creates on the follower the error the writer threw, with the same class and codes. */
export const fromWireError = (wire: WireError): Error => {
  switch (wire.kind) {
    case 'version_conflict':
      return new ExpectedVersionConflictError<string | undefined>(
        wire.current,
        wire.expected ?? '',
      );
    case 'idempotency_replay':
      return new IdempotencyReplayError(wire.record as IdempotencyRecord);
    case 'catalog':
      return new CatalogError(wire.message);
    case 'emmett':
      return new EmmettError({ errorCode: wire.errorCode ?? 500, message: wire.message });
    case 'type':
      return new TypeError(wire.message);
    default: {
      const error = new Error(wire.message);
      if (wire.name) error.name = wire.name;
      if (wire.code) Object.assign(error, { code: wire.code });
      if (wire.details) Object.assign(error, { details: wire.details });
      return error;
    }
  }
};
