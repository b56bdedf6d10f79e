import type { Logger } from 'pino';
import type { z } from 'zod';
import type { App } from '../app/app.js';
import type { ErrorCode } from '../commands/errors.js';
import type { Principal } from '../commands/principal.js';

/**
 * What a tool tells the host about itself. All four hints are required so that every tool
 * states them on purpose: `readOnlyHint` for queries, `destructiveHint` for overwrites and
 * deletes, `idempotentHint` only where repeating the call with the same arguments changes
 * nothing more. No surface reaches outside the local ledger, so `openWorldHint` is false.
 */
export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
};

/** The usual annotation sets, so a surface names the kind of tool instead of four booleans. */
export const Annotations = {
  /** reads only; repeating it changes nothing */
  query: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  } satisfies ToolAnnotations,
  /** appends events; `idempotent` when a repeat with the same arguments appends nothing more */
  mutation: (shape: { destructive: boolean; idempotent: boolean }): ToolAnnotations => ({
    readOnlyHint: false,
    destructiveHint: shape.destructive,
    idempotentHint: shape.idempotent,
    openWorldHint: false,
  }),
} as const;

/** Which transport a call arrived on. */
export type TransportKind = 'stdio' | 'http';

/** What the server is serving; `server_info` reports it and logs name it. */
export type ServedInfo = {
  name: string;
  version: string;
  transport: TransportKind;
  surfaces: readonly { name: string; tier: string; tools: readonly string[] }[];
};

/** What the client sent with a call beyond its arguments. */
export type CallInfo = {
  /** the request's `_meta` (e.g. Codex's `codex/sandbox-state-meta`) */
  meta: Record<string, unknown> | undefined;
  /**
   * The name of the MCP session the call belongs to: a hash of its `Mcp-Session-Id` over
   * stateful HTTP (call-info.ts: the id itself is never stored or shown), one id per process
   * over stdio, undefined over stateless HTTP (each request stands alone).
   */
  sessionId: string | undefined;
  /** The client's roots (`roots/list`); refused by clients that offer none, and at once where
   * the transport cannot ask (stateless HTTP). */
  listRoots(): Promise<{ uri: string; name?: string }[]>;
};

/** Everything a tool, resource or prompt may use while it runs. */
export type ToolContext = {
  app: App;
  /** who is calling: the bearer token's principal over HTTP, the local user (or --actor) on stdio */
  principal: Principal;
  served: ServedInfo;
  /** aborted when the client cancels the request or the connection drops */
  signal: AbortSignal;
  log: Logger;
  call: CallInfo;
};

/**
 * A tool's answer. `result` must match the tool's `output` schema; the adapter wraps it in the
 * one result envelope (result.ts). `summary` is the one line shown before the JSON in the text
 * block (default: "<tool>: ok").
 */
export type ToolSuccess<Result> = {
  result: Result;
  project_id?: string | null;
  summary?: string;
  /** true when an idempotency key replayed a stored response */
  replayed?: boolean;
  /** global log position the call reached (mutations) */
  position?: number;
  /** the surface's own envelope fields (its `Vocabulary.envelope`), e.g. intent's `task_id` */
  envelope?: Record<string, unknown>;
  /**
   * The text block after the summary line, when the envelope's JSON would repeat a large answer
   * (the build order of 2,000 stories): a rendering that still carries every field, for hosts
   * that show the model only text. Default: the envelope as JSON.
   */
  text?: string;
};

/**
 * One tool of a surface, declared, never wired by hand. `input` must be a strict object
 * (`z.strictObject`), so unknown keys are refused; it must not be a union at the top level.
 * A failure is a thrown `DomainError` (src/commands/errors.ts): the adapter turns it into a
 * tool result with `isError: true`. Anything else thrown is reported as `internal`.
 */
export type ToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
> = {
  /** `[a-z0-9_]+`, unique across every surface that may be served together */
  name: string;
  title: string;
  /** what the tool does, for the model: when to call it and what it returns */
  description: string;
  input: Input;
  output: Output;
  annotations: ToolAnnotations;
  /** the smallest tier of the surface that includes this tool */
  tier: string;
  /** version of this tool's result shape; bump it when `output` changes incompatibly */
  schemaVersion?: number;
  /** the tool's `_meta` in tools/list, e.g. the MCP Apps card it renders (`ui.resourceUri`) */
  meta?: Record<string, unknown>;
  run(args: z.output<Input>, ctx: ToolContext): Promise<ToolSuccess<z.input<Output>>>;
};

/** A tool of any input and output, as a surface lists it. */
export type AnyTool = ToolDefinition<z.ZodObject, z.ZodType>;

/** Declares a tool with its argument and result types inferred from its schemas. */
export const defineTool = <Input extends z.ZodObject, Output extends z.ZodType>(
  tool: ToolDefinition<Input, Output>,
): AnyTool => tool as unknown as AnyTool;

/**
 * A resource: a fixed `uri`, or a URI template (RFC 6570, e.g. `intentlog://project/{id}`)
 * whose variables reach `read`. Reading one needs credentials over HTTP, like a tool call.
 */
export type ResourceDefinition = {
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  read(ctx: ToolContext, variables: Record<string, string>): Promise<string>;
};

/** A prompt message as MCP carries it (text only: no surface makes images). */
export type PromptMessage = { role: 'user' | 'assistant'; text: string };

/** A prompt: arguments are strings (MCP's rule), declared as a strict zod object. */
export type PromptDefinition<Args extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  args?: Args;
  run(args: z.output<Args>, ctx: ToolContext): Promise<PromptMessage[]>;
};

export type AnyPrompt = PromptDefinition<z.ZodObject>;

export const definePrompt = <Args extends z.ZodObject>(prompt: PromptDefinition<Args>): AnyPrompt =>
  prompt as unknown as AnyPrompt;

/**
 * What a contract says about its envelope and its errors, beyond the shared envelope
 * `{ ok, schema_version, operation, project_id, …, result | error }`.
 */
export type Vocabulary = {
  /** extra envelope fields, e.g. intent's `task_id` */
  envelope?: z.ZodRawShape;
  /** the envelope fields of a call from its arguments, for error results */
  envelopeOf?: (args: unknown) => Record<string, unknown>;
  /** a kernel code as this contract names it (e.g. `conflict` → `REQUEST_ID_REUSED`) */
  errorCodes?: Partial<Record<ErrorCode, string>>;
  /**
   * A code that depends on more than the kernel code, consulted before `errorCodes` (intent: a
   * full or read-only disk is `unavailable` naming its cause, where a writer's timeout is
   * LOCK_TIMEOUT); undefined leaves it to `errorCodes`.
   */
  errorCodeOf?: (error: { code: string; details: Record<string, unknown> }) => string | undefined;
  /**
   * The line an error result's text starts with, where the contract fixes it (the local story
   * map's "Development of … was cancelled"); default `<tool> failed: <code>: <message>`.
   */
  errorSummary?: (error: { code: string; message: string }) => string | undefined;
  /** a `null` argument is the argument left out (HAI-MCP's clients send None; null-args.ts) */
  nullIsAbsent?: true;
};

/**
 * A surface: one contract's tools, resources and prompts. `tiers` lists the surface's tiers
 * from smallest to largest; serving tier T serves every tool whose tier is T or smaller.
 * A surface without tiers has one, e.g. `['all']`.
 */
export type Surface = Vocabulary & {
  name: string;
  title: string;
  /** added to the server's `instructions` when the surface is served */
  instructions: string;
  tiers: readonly string[];
  defaultTier: string;
  tools: readonly AnyTool[];
  resources?: readonly ResourceDefinition[];
  prompts?: readonly AnyPrompt[];
  /** `capabilities.experimental` entries the surface advertises (e.g. `codex/sandbox-state-meta`) */
  experimental?: Record<string, Record<string, unknown>>;
};
