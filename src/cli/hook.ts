#!/usr/bin/env node
import { hookMain } from './hook-run.js';

/**
 * `intentlog-hook <event> [options]`: `intentlog hook <event>` as an entry of its own, for the
 * hosts that start a Hook on every prompt (the plugin's hooks.json). The build bundles it into
 * one CommonJS file (dist/cli/hook.cjs: this, the wire module, the socket client and msgpackr's
 * pure-JS build) because on this size of machine each ES module a process resolves and links
 * costs it milliseconds, and the Hook's answer from a running writer needs nothing else. What
 * it does not need it loads on demand, as ES modules beside it: the app when no writer runs
 * (hook-in-process.js), and the full CLI for anything that is not a well-formed Hook line
 * (`--help`, an unknown event or option), which then explains itself as `intentlog hook` does.
 */
const args = process.argv.slice(2);
void hookMain(args).then(async (ran) => {
  if (ran) return;
  process.argv.splice(2, 0, 'hook');
  await import('./main.js');
});
