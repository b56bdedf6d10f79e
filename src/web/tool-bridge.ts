import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { isDomainError, type ErrorCode } from '../commands/errors.js';
import { packageVersion } from '../mcp/server.js';
import { parseToolInput } from '../mcp/tool-input.js';
import type { Surface, ToolContext, ToolSuccess } from '../mcp/tool.js';
import type { PageContext } from './page.js';

const quiet = pino({ level: 'silent' });

export type ToolOutcome =
  { ok: true; success: ToolSuccess<unknown> } | { ok: false; code: string; message: string };

const zodMessage = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || 'input'}: ${i.message}`).join('; ');

/**
 * Runs a surface's MCP tool for a web form: the same input schema, the same command, the same
 * refusal (with the surface's own error codes), as the signed-in principal. The page never
 * calls a decider itself, so the web and the agents can never disagree on a rule.
 */
export const runTool = async (
  surface: Surface,
  name: string,
  args: Record<string, unknown>,
  ctx: PageContext,
): Promise<ToolOutcome> => {
  const tool = surface.tools.find((t) => t.name === name);
  if (!tool) return { ok: false, code: 'not_found', message: `no tool ${name}` };
  const parsed = parseToolInput(tool, args);
  if (!parsed.success) {
    const code = surface.errorCodes?.invalid_argument ?? 'invalid_argument';
    return { ok: false, code, message: zodMessage(parsed.issues) };
  }
  const context: ToolContext = {
    app: ctx.app,
    principal: ctx.principal,
    served: { name: 'intentlog-web', version: packageVersion(), transport: 'http', surfaces: [] },
    signal: new AbortController().signal,
    log: quiet,
    call: {
      meta: undefined,
      sessionId: undefined,
      listRoots: () => Promise.reject(new Error('the web view has no roots')),
    },
  };
  try {
    return { ok: true, success: await tool.run(parsed.data, context) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const code = surface.errorCodes?.[error.code as ErrorCode] ?? error.code;
    return { ok: false, code, message: error.message };
  }
};

/** A form's fields as tool arguments: empty fields left out, `idempotency_key` always set. */
export const formArgs = (
  form: URLSearchParams,
  fields: readonly string[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> => {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    const v = form.get(f);
    if (v !== null && v.trim() !== '') args[f] = v.trim();
  }
  return { ...args, idempotency_key: form.get('idempotency_key') || randomUUID(), ...extra };
};
