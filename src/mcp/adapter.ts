import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type CallToolResult,
  type McpServer,
  type ReadResourceResult,
  type ServerContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CallObserver } from '../app/metrics.js';
import { isDomainError } from '../commands/errors.js';
import { compactSchema } from './compact-schema.js';
import { parseToolInput } from './tool-input.js';
import { envelopeOfError } from './error-envelope.js';
import { errorCodeOf } from './flat-envelope.js';
import { withoutNulls } from './null-args.js';
import {
  advertisedOutputSchema,
  asDomainError,
  errorResult,
  invalidArguments,
  successResult,
} from './result.js';
import type {
  AnyPrompt,
  AnyTool,
  ResourceDefinition,
  Surface,
  ToolContext,
  Vocabulary,
} from './tool.js';

/**
 * Builds the context a call runs in from the SDK's request context; throws a DomainError
 * (`forbidden`) when the call has no principal.
 */
export type ContextOf = (request: ServerContext) => Promise<ToolContext>;

type JsonSchemaConverter = z.ZodType['~standard']['jsonSchema'];

/**
 * Converting zod to JSON Schema on every tools/list adds up: converted once, then compacted
 * (compact-schema.ts; descriptions and strictness kept only for what a tool takes).
 */
const memoized = (convert: JsonSchemaConverter, kind: 'input' | 'output'): JsonSchemaConverter => {
  const cache = new Map<string, Record<string, unknown>>();
  const once =
    (io: 'input' | 'output') => (options: Parameters<JsonSchemaConverter['input']>[0]) => {
      const key = `${io}:${JSON.stringify(options)}`;
      const hit =
        cache.get(key) ??
        (compactSchema(convert[io](options), { output: kind === 'output' }) as Record<
          string,
          unknown
        >);
      cache.set(key, hit);
      return hit;
    };
  return { input: once('input'), output: once('output') };
};

/**
 * The schema as the SDK sees it: its JSON Schema is advertised in `tools/list`, and its
 * validation accepts anything. The adapter validates with zod itself, so that bad arguments come
 * back as the `invalid_argument` envelope (hosts show the model only `structuredContent`)
 * rather than as the SDK's text-only error.
 */
const advertised = (schema: z.ZodType, kind: 'input' | 'output'): StandardSchemaWithJSON => ({
  '~standard': {
    version: 1,
    vendor: 'intentlog',
    validate: (value: unknown) => ({ value }),
    jsonSchema: memoized(schema['~standard'].jsonSchema, kind),
  },
});

const schemasOf = new WeakMap<
  AnyTool,
  { input: StandardSchemaWithJSON; output: StandardSchemaWithJSON }
>();

/** A tool's advertised schemas, made once per definition (servers are made per request). */
const toolSchemas = (tool: AnyTool, vocabulary: Vocabulary) => {
  const known = schemasOf.get(tool);
  if (known) return known;
  const made = {
    input: advertised(tool.input, 'input'),
    output: advertised(advertisedOutputSchema(tool.output, vocabulary), 'output'),
  };
  schemasOf.set(tool, made);
  return made;
};

const projectIdOf = (args: unknown): string | null => {
  const value = (args as { project_id?: unknown } | undefined)?.project_id;
  return typeof value === 'string' ? value : null;
};

/** Runs one tool call: validate, run, validate the answer, wrap it in the envelope. */
export const callTool = async (
  tool: AnyTool,
  args: unknown,
  contextOf: ContextOf,
  request: ServerContext,
  vocabulary: Vocabulary = {},
): Promise<CallToolResult> => {
  const failed = (error: unknown) =>
    errorResult(tool, projectIdOf(args), asDomainError(error), vocabulary, {
      ...fieldsOf(args),
      ...envelopeOfError(error),
    });
  const fieldsOf = (raw: unknown) => vocabulary.envelopeOf?.(raw);
  const parsed = parseToolInput(
    tool,
    vocabulary.nullIsAbsent ? withoutNulls(args ?? {}) : (args ?? {}),
  );
  if (!parsed.success) return failed(invalidArguments(parsed.issues));
  let ctx: ToolContext | undefined;
  try {
    ctx = await contextOf(request);
    const outcome = await tool.run(parsed.data, ctx);
    const result = tool.output.safeParse(outcome.result);
    if (!result.success) {
      ctx.log.error({ tool: tool.name, issues: result.error.issues }, 'tool result off its schema');
      return failed(result.error);
    }
    return successResult(tool, { ...outcome, result: result.data });
  } catch (error) {
    if (!isDomainError(error)) ctx?.log.error({ tool: tool.name, err: error }, 'tool failed');
    return failed(error);
  }
};

/** The outcome a result is counted under: `ok`, or the error code it answered. */
const outcomeOf = (result: CallToolResult): string =>
  result.isError ? (errorCodeOf(result.structuredContent) ?? 'error') : 'ok';

/** `callTool`, told to the metrics (count by outcome, latency) when they are kept. */
const observedCall = (
  surface: Surface,
  tool: AnyTool,
  contextOf: ContextOf,
  observe: CallObserver | undefined,
) => {
  if (!observe)
    return (args: unknown, request: ServerContext) =>
      callTool(tool, args, contextOf, request, surface);
  return async (args: unknown, request: ServerContext) => {
    const started = performance.now();
    const result = await callTool(tool, args, contextOf, request, surface);
    const seconds = (performance.now() - started) / 1000;
    observe({ surface: surface.name, tool: tool.name, outcome: outcomeOf(result), seconds });
    return result;
  };
};

const registerTool = (
  server: McpServer,
  surface: Surface,
  tool: AnyTool,
  contextOf: ContextOf,
  observe: CallObserver | undefined,
): void => {
  const schemas = toolSchemas(tool, surface);
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: schemas.input,
      outputSchema: schemas.output,
      annotations: tool.annotations,
      ...(tool.meta ? { _meta: tool.meta } : {}),
    },
    observedCall(surface, tool, contextOf, observe),
  );
};

/** Resources and prompts answer failures as JSON-RPC errors (MCP has no isError for them). */
const protocolError = (error: unknown): ProtocolError => {
  const domain = asDomainError(error);
  const code =
    domain.code === 'invalid_argument' || domain.code === 'not_found'
      ? ProtocolErrorCode.InvalidParams
      : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, `${domain.code}: ${domain.message}`, { code: domain.code });
};

const readResource = async (
  resource: ResourceDefinition,
  uri: URL,
  variables: Record<string, string>,
  context: () => Promise<ToolContext>,
): Promise<ReadResourceResult> => {
  let ctx: ToolContext | undefined;
  try {
    ctx = await context();
    const text = await resource.read(ctx, variables);
    return { contents: [{ uri: uri.href, mimeType: resource.mimeType, text }] };
  } catch (error) {
    if (!isDomainError(error))
      ctx?.log.error({ resource: resource.uri, err: error }, 'read failed');
    throw protocolError(error);
  }
};

const flatVariables = (variables: Record<string, string | string[]>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(variables).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
  );

const registerResource = (
  server: McpServer,
  resource: ResourceDefinition,
  contextOf: ContextOf,
): void => {
  const metadata = {
    title: resource.title,
    description: resource.description,
    mimeType: resource.mimeType,
  };
  if (!resource.uri.includes('{')) {
    server.registerResource(resource.name, resource.uri, metadata, (uri, request) =>
      readResource(resource, uri, {}, () => contextOf(request)),
    );
    return;
  }
  const template = new ResourceTemplate(resource.uri, { list: undefined });
  server.registerResource(resource.name, template, metadata, (uri, variables, request) =>
    readResource(resource, uri, flatVariables(variables), () => contextOf(request)),
  );
};

const registerPrompt = (server: McpServer, prompt: AnyPrompt, contextOf: ContextOf): void => {
  server.registerPrompt(
    prompt.name,
    {
      title: prompt.title,
      description: prompt.description,
      argsSchema: prompt.args ?? z.strictObject({}),
    },
    async (args: Record<string, unknown>, request: ServerContext) => {
      try {
        const messages = await prompt.run(args, await contextOf(request));
        return {
          description: prompt.description,
          messages: messages.map((m) => ({
            role: m.role,
            content: { type: 'text' as const, text: m.text },
          })),
        };
      } catch (error) {
        throw protocolError(error);
      }
    },
  );
};

/**
 * The one adapter: registers the given tools of a surface (those its tier serves, toolsServed)
 * and every resource and prompt of it on an McpServer.
 */
export const registerSurface = (
  server: McpServer,
  surface: Surface,
  tools: readonly AnyTool[],
  contextOf: ContextOf,
  observe?: CallObserver,
): void => {
  for (const tool of tools) registerTool(server, surface, tool, contextOf, observe);
  for (const resource of surface.resources ?? []) registerResource(server, resource, contextOf);
  for (const prompt of surface.prompts ?? []) registerPrompt(server, prompt, contextOf);
};
