import { existsSync } from 'node:fs';
import { Argument, Option, type Command } from 'commander';
import { defaultDataDir } from '../../app/app.js';
import { HOOK_EVENTS, runHook, type HookEvent, type HookInput } from '../../app/intent-hooks.js';
import { appCommand, withApp, type AppFlags } from '../options.js';

type HookFlags = AppFlags & { timeout: number };

const CONTINUE = '{"continue":true}\n';

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

const parse = (text: string): HookInput => {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as HookInput) : {};
  } catch {
    return {};
  }
};

/**
 * `intentlog hook <event>`: the host's Hook runs it with its JSON on stdin. Whatever happens —
 * malformed input, no data dir, a held lock, a slow disk — it answers `{"continue":true}` within
 * its timeout and exits 0: a Hook fails open for the host. A missing data dir is never created.
 */
const hook = async (event: HookEvent, flags: HookFlags): Promise<void> => {
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, flags.timeout).unref());
  const answer = async (): Promise<string> => {
    const input = parse(await readStdin(deadline));
    const dataDir = flags.dataDir ?? defaultDataDir();
    if (!flags.store && !existsSync(dataDir)) return CONTINUE;
    const output = await withApp({ ...flags, dataDir }, (app) => runHook(app, event, input));
    return `${JSON.stringify(output)}\n`;
  };
  const text = await Promise.race([answer().catch(() => CONTINUE), deadline.then(() => CONTINUE)]);
  process.stdout.write(text, () => process.exit(0));
};

export const hookCommand = (): Command =>
  appCommand('hook', 'run an intent Hook: host JSON on stdin, {"continue":true} on stdout')
    .addArgument(new Argument('<event>', 'the Hook event').choices(HOOK_EVENTS))
    .addOption(
      new Option('--timeout <ms>', 'answer by then, whatever happens')
        .default(2000)
        .argParser((v) => Math.max(50, Number(v) || 2000)),
    )
    .action((event: HookEvent, flags: HookFlags) => hook(event, flags));
