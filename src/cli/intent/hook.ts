import { Argument, Option, type Command } from 'commander';
import { HOOK_EVENTS, type HookEvent } from '../../app/intent/hook-wire.js';
import { DEFAULT_TIMEOUT_MS, runHookProcess, timeoutOf, type HookFlags } from '../hook-run.js';
import { appCommand } from '../options.js';

/**
 * `intentlog hook <event>`: the host's Hook runs it with its JSON on stdin and reads
 * `{"continue":true}` (and for session-start the context) on stdout. main.ts runs a well-formed
 * line straight through hook-run.ts without commander; this declaration serves `--help` and
 * explains a malformed line.
 */
export const hookCommand = (): Command =>
  appCommand('hook', 'run an intent Hook: host JSON on stdin, {"continue":true} on stdout')
    .addArgument(new Argument('<event>', 'the Hook event').choices(HOOK_EVENTS))
    .addOption(
      new Option('--timeout <ms>', 'answer by then, whatever happens')
        .default(DEFAULT_TIMEOUT_MS)
        .argParser(timeoutOf),
    )
    .action((event: HookEvent, flags: HookFlags) => runHookProcess(event, flags));
