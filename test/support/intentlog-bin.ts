import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/**
 * The node arguments that start the real `intentlog` CLI: the bin the test runner just built
 * (test/run.mjs sets INTENTLOG_TEST_BIN: a cold start in a fraction of tsx's), else the
 * source through tsx, so a single test file still runs on its own.
 */
export const intentlogArgs = (args: readonly string[]): string[] => {
  const bin = process.env.INTENTLOG_TEST_BIN;
  return bin ? [bin, ...args] : ['--import', 'tsx', source, ...args];
};
