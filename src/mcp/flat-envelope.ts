import type { ErrorEnvelope, SuccessEnvelope } from './result.js';

/**
 * How a surface's answers are written into the text block and `structuredContent`.
 *
 * - `json`: the text block is exactly the envelope's JSON (MCP's structured-output rule: the
 *   text carries the serialized `structuredContent`). The envelope's shape does not change.
 * - `flat`: HAI-MCP's shape (contracts/missions.md, "Structured JSON in tool result with
 *   `ok: false` and `error` code"): the result's fields at the top level, `error` a code string
 *   with `message` and the details beside it; `result` and `details` stay as aliases. The text
 *   block is its JSON, as with `json`.
 *
 * Surfaces without a style keep a summary line before the JSON. The style is kept per tool
 * definition (set by the surface that declares the tools), because the result functions are
 * handed the tool on every path, the success path included.
 */
export type EnvelopeStyle = 'json' | 'flat';

const styles = new WeakMap<object, EnvelopeStyle>();

/** Marks every tool of a surface with its envelope style; returns the tools. */
export const withEnvelopeStyle = <T extends object>(style: EnvelopeStyle, tools: T[]): T[] => {
  for (const tool of tools) styles.set(tool, style);
  return tools;
};

export const envelopeStyleOf = (tool: object): EnvelopeStyle | undefined => styles.get(tool);

/** Envelope fields a result's or an error's own fields never overwrite. */
const RESERVED = new Set([
  'ok',
  'schema_version',
  'operation',
  'project_id',
  'replayed',
  'position',
  'result',
  'error',
  'message',
  'details',
]);

const spreadable = (fields: unknown): Record<string, unknown> =>
  fields !== null && typeof fields === 'object' && !Array.isArray(fields)
    ? Object.fromEntries(Object.entries(fields).filter(([k]) => !RESERVED.has(k)))
    : {};

/** The result's fields beside the envelope's own; `result` kept as an alias. */
export const flatSuccess = (envelope: SuccessEnvelope): Record<string, unknown> => {
  const { result, ...own } = envelope;
  return { ...spreadable(result), ...own, result };
};

/**
 * The gate's refusals of a presented code are, in HAI-MCP's words, `owner_gate_required` with
 * the reason in `detail` (docs/OWNER_GATE.md, "Result shapes"); the kernel keeps its own codes.
 */
const GATE_DETAIL = new Set(['invalid_owner_code', 'no_pending_challenge', 'malformed_owner_code']);

/** `error` as a code string, `message` and the details beside it; `details` kept as an alias. */
export const flatError = (envelope: ErrorEnvelope): Record<string, unknown> => {
  const { error, ...own } = envelope;
  const gated = GATE_DETAIL.has(error.code);
  return {
    ...spreadable(error.details),
    ...own,
    error: gated ? 'owner_gate_required' : error.code,
    ...(gated ? { detail: error.code } : {}),
    message: error.message,
    details: error.details,
  };
};

/** The error code of an answer in either shape (the metrics count calls by it). */
export const errorCodeOf = (structured: unknown): string | undefined => {
  const error = (structured as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};
