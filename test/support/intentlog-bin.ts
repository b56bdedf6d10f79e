import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const hookSource = fileURLToPath(new URL('../../src/cli/hook.ts', import.meta.url));

/**
 * The node arguments that start the real `intentlog` CLI: the bin the test runner just built
 * (test/run.mjs sets INTENTLOG_TEST_BIN: a cold start in a fraction of tsx's), else the
 * source through tsx, so a single test file still runs on its own.
 */
export const intentlogArgs = (args: readonly string[]): string[] => {
  const bin = process.env.INTENTLOG_TEST_BIN;
  return bin ? [bin, ...args] : ['--import', 'tsx', source, ...args];
};

/**
 * The node arguments that start the plugin's entry, `intentlog-hook <event>` (src/cli/hook.ts):
 * the bundle the test runner built beside the bin (dist/cli/hook.cjs, what the plugin runs),
 * else the source through tsx.
 */
export const intentlogHookArgs = (args: readonly string[]): string[] => {
  const bin = process.env.INTENTLOG_TEST_BIN;
  return bin ? [join(dirname(bin), 'hook.cjs'), ...args] : ['--import', 'tsx', hookSource, ...args];
};
