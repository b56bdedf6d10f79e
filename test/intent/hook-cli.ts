import { spawn } from 'node:child_process';
import { intentlogHookArgs } from '../support/intentlog-bin.js';

/**
 * Runs the plugin's Hook entry, `intentlog-hook <event> --data-dir <dir>`, with `stdin` (an
 * object is sent as JSON); resolves with its stdout parsed, its raw text and its exit code.
 * The Hook's deadline is raised far above its default: these tests check what it does, and on a
 * loaded machine a 2 s deadline would answer `continue` first.
 */
export const runHookCli = (
  event: string,
  dataDir: string,
  stdin: string | Record<string, unknown>,
  env: Record<string, string> = {},
) =>
  new Promise<{ output: HookAnswer; stdout: string; code: number | null }>((resolve) => {
    const child = spawn(
      process.execPath,
      intentlogHookArgs([event, '--data-dir', dataDir, '--timeout', '60000']),
      { env: { ...process.env, INTENTLOG_STORE: '', ...env } },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => {
      let output: HookAnswer = { continue: false };
      try {
        output = JSON.parse(stdout) as HookAnswer;
      } catch {
        // left as not continuing: the assertion on `continue` names the failure
      }
      resolve({ output, stdout, code });
    });
    child.stdin.end(typeof stdin === 'string' ? stdin : JSON.stringify(stdin));
  });

export type HookAnswer = {
  continue: boolean;
  suppressOutput?: boolean;
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
};

/** The context a Hook injected, or '' when it injected none. */
export const contextOf = (answer: HookAnswer): string =>
  answer.hookSpecificOutput?.additionalContext ?? '';
