/**
 * What a Hook is and what crosses the writer socket for one, with no imports: the Hook's fast
 * path (src/cli/hook-run.ts) loads this and the socket client only, so a Hook answered by a
 * running writer starts almost as fast as bare Node (docs/decisions.md, "Hooks ask the writer").
 */
export const HOOK_EVENTS = [
  'session-start',
  'user-prompt',
  'post-compact',
  'stop',
  'session-end',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const isHookEvent = (value: unknown): value is HookEvent =>
  (HOOK_EVENTS as readonly unknown[]).includes(value);

/** What a host sends on stdin (Claude Code / Codex), the fields Hooks read; the rest is ignored. */
export type HookInput = { session_id?: unknown; cwd?: unknown; prompt?: unknown; source?: unknown };

export type HookOutput = {
  continue: true;
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
};

/** The writer op that runs a Hook in the writer's process, on its warm read models. */
export const HOOK_OP = 'intent.hook';

/** The op's arguments: the event and only the input fields a Hook reads (no transcript path). */
export type HookCall = { event: HookEvent; input: HookInput };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields a Hook reads, from whatever the host sent (anything else: none). */
export const hookInputOf = (value: unknown): HookInput => {
  if (!isRecord(value)) return {};
  const input: HookInput = {};
  for (const key of ['session_id', 'cwd', 'prompt', 'source'] as const)
    if (Object.hasOwn(value, key)) input[key] = value[key];
  return input;
};

/** The op's arguments as they arrived over the socket, if they are a Hook call. */
export const hookCallOf = (args: unknown): HookCall | undefined =>
  isRecord(args) && isHookEvent(args.event)
    ? { event: args.event, input: hookInputOf(args.input) }
    : undefined;

/** Host stdin as Hook input: malformed JSON is no input, never an error. */
export const parseHookInput = (text: string): HookInput => {
  try {
    return hookInputOf(JSON.parse(text));
  } catch {
    return {};
  }
};

/** A Hook answer as it came back over the socket, if it is one. */
export const hookOutputOf = (value: unknown): HookOutput | undefined => {
  if (!isRecord(value) || value.continue !== true) return undefined;
  const specific = value.hookSpecificOutput;
  if (specific === undefined) return { continue: true };
  if (
    !isRecord(specific) ||
    typeof specific.hookEventName !== 'string' ||
    typeof specific.additionalContext !== 'string'
  )
    return undefined;
  const { hookEventName, additionalContext } = specific;
  return { continue: true, hookSpecificOutput: { hookEventName, additionalContext } };
};
