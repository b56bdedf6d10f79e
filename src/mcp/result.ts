import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DomainError, isDomainError, type ErrorCode } from '../commands/errors.js';
import { domainErrorOf } from '../commands/store-errors.js';
import { envelopeStyleOf, flatError, flatSuccess } from './flat-envelope.js';
import type { ToolSuccess, Vocabulary } from './tool.js';

/**
 * The one result envelope every tool answers with. Claude Code and Codex show the model only
 * `structuredContent` when it is present, so the envelope carries everything: which operation,
 * which project, and the result or the error.
 */
export const ErrorBody = z.object({
  code: z.string().describe('stable error code of this contract; branch on it, not on the message'),
  message: z.string(),
  retryable: z
    .boolean()
    .optional()
    .describe('whether the same call may succeed later; present where the contract says'),
  details: z.record(z.string(), z.unknown()),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

type Common = {
  schema_version: number;
  operation: string;
  project_id: string | null;
  /** a surface's own envelope fields (intent's `task_id`) */
  [field: string]: unknown;
};
export type SuccessEnvelope<Result = unknown> = Common & {
  ok: true;
  replayed?: boolean;
  position?: number;
  result: Result;
};
export type ErrorEnvelope = Common & { ok: false; error: ErrorBody };
export type Envelope<Result = unknown> = SuccessEnvelope<Result> | ErrorEnvelope;

/**
 * The declared output schema of a tool: one object (hosts require an object root), with `result`
 * present when `ok` is true and `error` when it is false. Error results validate against it too.
 */
export const envelopeSchema = (operation: string, result: z.ZodType, vocabulary: Vocabulary = {}) =>
  z.object({
    ok: z.boolean().describe('true: `result` holds the answer; false: `error` says what failed'),
    schema_version: z.number().int().describe('version of this operation’s result shape'),
    operation: z.literal(operation),
    project_id: z.string().nullable().describe('the project the call acted on, if any'),
    ...vocabulary.envelope,
    replayed: z.boolean().optional().describe('an idempotency key replayed the stored answer'),
    position: z.number().int().optional().describe('global log position the call reached'),
    result: result.optional(),
    error: ErrorBody.optional(),
  });

/**
 * The output schema a tool advertises: `ok`, the contract's own envelope fields and the tool's
 * `result`. The fields every envelope shares (`schema_version`, `operation`, `project_id`,
 * `replayed`, `position`, `error`) are said once, in the server's instructions (server.ts,
 * ENVELOPE), instead of again in each of up to 60 tools; every answer still carries them and
 * validates (nothing forbids fields the schema does not name). `envelopeSchema` stays the
 * whole shape the adapter's own answers are typed by.
 */
export const advertisedOutputSchema = (result: z.ZodType, vocabulary: Vocabulary = {}) =>
  z.object({ ok: z.boolean(), ...vocabulary.envelope, result: result.optional() });

type Operation = { name: string; schemaVersion?: number };

/** The fields every envelope of this operation starts with. */
const common = (
  tool: Operation,
  projectId: string | null,
  fields: Record<string, unknown> | undefined,
) => ({
  schema_version: tool.schemaVersion ?? 1,
  operation: tool.name,
  project_id: projectId,
  ...fields,
});

const text = (summary: string, envelope: Envelope): CallToolResult['content'] => [
  // A summary line, then the envelope as JSON: hosts that render only text (and clients older
  // than structured content, protocol 2025-03-26) still see everything.
  { type: 'text', text: `${summary}\n${JSON.stringify(envelope)}` },
];

const jsonText = (structured: Record<string, unknown>): CallToolResult['content'] => [
  { type: 'text', text: JSON.stringify(structured) },
];

export const successResult = <Result>(
  tool: Operation,
  outcome: ToolSuccess<Result>,
): CallToolResult => {
  const envelope: SuccessEnvelope<Result> = {
    ok: true,
    ...common(tool, outcome.project_id ?? null, outcome.envelope),
    ...(outcome.replayed === undefined ? {} : { replayed: outcome.replayed }),
    ...(outcome.position === undefined ? {} : { position: outcome.position }),
    result: outcome.result,
  };
  const style = envelopeStyleOf(tool);
  if (style) {
    // the surface's text block is its structured content, serialized (flat-envelope.ts)
    const structured = style === 'flat' ? flatSuccess(envelope) : envelope;
    return { content: jsonText(structured), structuredContent: structured };
  }
  const summary = outcome.summary ?? `${tool.name}: ok`;
  return {
    content: outcome.text
      ? [{ type: 'text', text: `${summary}\n${outcome.text}` }]
      : text(summary, envelope),
    structuredContent: envelope,
  };
};

export const errorResult = (
  tool: Operation,
  projectId: string | null,
  error: DomainError,
  vocabulary: Vocabulary = {},
  fields?: Record<string, unknown>,
): CallToolResult => {
  const code =
    vocabulary.errorCodeOf?.(error) ??
    vocabulary.errorCodes?.[error.code as ErrorCode] ??
    error.code;
  const envelope: ErrorEnvelope = {
    ok: false,
    ...common(tool, projectId, fields),
    error: {
      code,
      message: error.message,
      // a contract that says whether an error is retryable (intent) says it at the top too
      ...(typeof error.details.retryable === 'boolean'
        ? { retryable: error.details.retryable }
        : {}),
      details: error.details,
    },
  };
  const style = envelopeStyleOf(tool);
  if (style) {
    const structured = style === 'flat' ? flatError(envelope) : envelope;
    return { content: jsonText(structured), structuredContent: structured, isError: true };
  }
  return {
    content: text(
      vocabulary.errorSummary?.(error) ?? `${tool.name} failed: ${code}: ${error.message}`,
      envelope,
    ),
    structuredContent: envelope,
    isError: true,
  };
};

/**
 * Anything thrown that is not a DomainError is a known store failure (`domainErrorOf`: bad text,
 * a full or read-only disk, a writer that timed out), else a bug: say `internal`, no stack.
 */
export const asDomainError = (error: unknown): DomainError =>
  isDomainError(error)
    ? error
    : (domainErrorOf(error) ??
      new DomainError('internal', 'the server failed to complete the call; see its log', {}));

/** zod issues as error details a model can act on: where, and what was wrong. */
export const invalidArguments = (issues: readonly z.core.$ZodIssue[]): DomainError =>
  new DomainError(
    'invalid_argument',
    issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; '),
    {
      issues: issues.map((i) => ({ path: i.path.map(String), code: i.code, message: i.message })),
    },
  );
