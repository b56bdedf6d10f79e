import { homedir } from 'node:os';
import { join } from 'node:path';

/** The data directory when none is given: $INTENTLOG_HOME, else ~/.intentlog. */
export const defaultDataDir = (): string =>
  process.env.INTENTLOG_HOME ?? join(homedir(), '.intentlog');
