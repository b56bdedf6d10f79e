import { releaseEarlyStdio, startEarlyStdio } from '../mcp/stdio-early.js';
import { lightFlags } from './light-flags.js';

export { releaseEarlyStdio };

/** `intentlog mcp`'s options, each with a value (commands/mcp.ts declares them for commander). */
const VALUED = new Set(['--data-dir', '--store', '--surface', '--actor', '--project-root']);
/** and those without one: `--read-only` changes the tools listed, not the answer to initialize */
const SWITCHES = new Set(['--read-only']);

/**
 * `--surface` of an `intentlog mcp` line, read without commander: `{ spec }` (undefined when not
 * given, as commander would, from $INTENTLOG_SURFACE), or undefined for a line holding anything
 * else (`--help`, an unknown option): commander then reads it, and nothing is answered early.
 */
export const mcpSurfaceSpec = (
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): { spec: string | undefined } | undefined => {
  const given = lightFlags(args, VALUED, SWITCHES);
  return given && { spec: (given.get('--surface') ?? env.INTENTLOG_SURFACE) || undefined };
};

/**
 * How long `mcp` waits for the client's first line before it loads the full server: hosts send
 * `initialize` as soon as they spawn the process, and loading blocks the event loop for long
 * stretches, during which an `initialize` would wait.
 */
const FIRST_LINE_WAIT_MS = 100;

/** main.ts's first step for `mcp`: answers `initialize` early when it can (stdio-early.ts). */
export const answerMcpEarly = async (args: readonly string[]): Promise<void> => {
  const parsed = mcpSurfaceSpec(args, process.env);
  if (parsed) await startEarlyStdio({ spec: parsed.spec }, FIRST_LINE_WAIT_MS);
};
