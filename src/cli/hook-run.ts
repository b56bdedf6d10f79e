import { defaultDataDir } from '../app/data-dir.js';
import { runLightHook } from '../app/intent/hook-light.js';
import { isHookEvent, parseHookInput, type HookEvent } from '../app/intent/hook-wire.js';
import { lightFlags } from './light-flags.js';

/** `intentlog hook <event>`'s options (cli/intent/hook.ts declares them for `--help`). */
export type HookFlags = { dataDir?: string; store?: string; timeout: number };

export const DEFAULT_TIMEOUT_MS = 2000;

/** `--timeout <ms>`: at least 50 ms; anything unreadable is the default. */
export const timeoutOf = (value: string): number =>
  Math.max(50, Number(value) || DEFAULT_TIMEOUT_MS);

const HOOK_OPTIONS = new Set(['--data-dir', '--store', '--timeout']);

const CONTINUE = '{"continue":true,"suppressOutput":true}\n';

/**
 * The arguments after `hook`, read without commander (a Hook runs on every prompt and loads as
 * little as it can): `<event> [--data-dir <dir>] [--store <store>] [--timeout <ms>]`, with the
 * same environment variables. Anything else (`--help`, an unknown event or option) is
 * undefined: the caller hands the line to commander, which explains it.
 */
export const parseHookArgs = (
  args: readonly string[],
): { event: HookEvent; flags: HookFlags } | undefined => {
  const [event, ...rest] = args;
  if (!isHookEvent(event)) return undefined;
  const given = lightFlags(rest, HOOK_OPTIONS);
  if (!given) return undefined;
  const flags: HookFlags = { timeout: DEFAULT_TIMEOUT_MS };
  const dataDir = given.get('--data-dir') ?? process.env.INTENTLOG_HOME;
  if (dataDir !== undefined) flags.dataDir = dataDir;
  const store = given.get('--store') ?? process.env.INTENTLOG_STORE;
  if (store !== undefined) flags.store = store;
  const timeout = given.get('--timeout');
  if (timeout !== undefined) flags.timeout = timeoutOf(timeout);
  return { event, flags };
};

/** Reads stdin to its end, or what arrived when the deadline passes. */
const readStdin = (deadline: Promise<void>): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    if (process.stdin.isTTY) return resolve('');
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (text += chunk));
    process.stdin.once('end', () => resolve(text));
    process.stdin.once('error', () => resolve(text));
    void deadline.then(() => resolve(text));
  });

/**
 * Runs one Hook as the whole process: the host's JSON on stdin, the answer on stdout, exit 0.
 * Whatever happens — malformed input, no data dir, an unreadable view, a full disk — it
 * answers `{"continue":true}` within its timeout: a Hook fails open for the host. `--store`
 * is accepted and has no effect: a Hook reads and writes only files of the data dir.
 */
export const runHookProcess = async (event: HookEvent, flags: HookFlags): Promise<void> => {
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, flags.timeout).unref());
  const answered = async (): Promise<string> => {
    const input = parseHookInput(await readStdin(deadline));
    // the view file and the spool only: no Hook opens the store (docs/intent.md, "Hooks")
    const output = runLightHook(flags.dataDir ?? defaultDataDir(), event, input);
    return `${JSON.stringify(output)}\n`;
  };
  const text = await Promise.race([
    answered().catch(() => CONTINUE),
    deadline.then(() => CONTINUE),
  ]);
  process.stdout.write(text, () => process.exit(0));
};

/** main.ts's entry for `hook`: true when it ran the Hook, false to hand the line to commander. */
export const hookMain = async (args: readonly string[]): Promise<boolean> => {
  const parsed = parseHookArgs(args);
  if (!parsed) return false;
  await runHookProcess(parsed.event, parsed.flags);
  return true;
};
