#!/usr/bin/env node
import { hookMain } from './hook-run.js';

/**
 * `intentlog-hook <event> [options]`: `intentlog hook <event>` as an entry of its own, for the
 * hosts that start a Hook on every prompt (the plugin's hooks.json). The build bundles it into
 * one CommonJS file (dist/cli/hook.cjs: this, the view and spool modules and the redaction
 * patterns; Node's own modules otherwise) because each ES module a process resolves and links
 * costs it about a millisecond, and a Hook needs nothing else: it never opens the store. The
 * full CLI is loaded, as the ES module beside it, only for a line that is not a well-formed
 * Hook (`--help`, an unknown event or option), which then explains itself as `intentlog hook`.
 */
const args = process.argv.slice(2);
void hookMain(args).then(async (ran) => {
  if (ran) return;
  process.argv.splice(2, 0, 'hook');
  await import('./main.js');
});
