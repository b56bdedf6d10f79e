/**
 * What a Hook is, reads and answers, with no imports: the Hook's process (src/cli/hook-run.ts)
 * loads this, the view and spool modules and nothing of the app (docs/intent.md, "Hooks").
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
  /** intent-loop's: the host keeps the Hook's own output out of the transcript */
  suppressOutput?: true;
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
};

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

/** Host stdin as Hook input: malformed JSON is no input, never an error. */
export const parseHookInput = (text: string): HookInput => {
  try {
    return hookInputOf(JSON.parse(text));
  } catch {
    return {};
  }
};
