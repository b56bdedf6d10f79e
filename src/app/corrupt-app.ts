import { domainError } from '../commands/errors.js';
import type { CorruptStoreError } from '../events/level/level-verify.js';
import type { App } from './app.js';

/**
 * What `intentlog mcp` serves when its store refused to open as corrupt (level-verify.ts): the
 * connection stays up, so a client can be told. Every use of the app answers the structured
 * error `CORRUPT_LEDGER` (nothing is read or written: fail closed for state), except the data
 * dir and the facts of the corruption, which a status tool reports (contracts/intent.md,
 * `intent_status`: "corruption status"; NOTES.md: a corrupt middle record stops projection).
 */
export type Corruption = { data_dir: string; problems: string[]; repair: string };

const CORRUPTION = Symbol('corruption');

export const corruptLedger = (corruption: Corruption) =>
  domainError(
    'CORRUPT_LEDGER',
    `the store in ${corruption.data_dir} is corrupt; nothing was read or written. ` +
      `Copy out what is intact with  ${corruption.repair}`,
    { ...corruption, code: 'CORRUPT_LEDGER', retryable: false },
  );

/**
 * A store's refusal to open as corrupt, told by its code (importing the class would load the
 * LevelDB checks into every `intentlog mcp` start).
 */
export const isCorruptStore = (error: unknown): error is CorruptStoreError =>
  error instanceof Error &&
  (error as { code?: unknown }).code === 'corrupt_store' &&
  Array.isArray((error as { problems?: unknown }).problems);

/** An App stand-in for a store that is corrupt: only `dataDir` and its corruption read. */
export const corruptApp = (dataDir: string, error: CorruptStoreError): App => {
  const corruption: Corruption = {
    data_dir: dataDir,
    problems: error.problems.slice(0, 20),
    repair: `intentlog audit repair --data-dir ${dataDir} --into <a new data dir>`,
  };
  const known: Record<PropertyKey, unknown> = { dataDir, [CORRUPTION]: corruption };
  return new Proxy(known, {
    get(target, key) {
      if (key in target) return target[key];
      // not a thenable: the stand-in resolves a promise as itself
      if (key === 'then') return undefined;
      throw corruptLedger(corruption);
    },
  }) as unknown as App;
};

/** The corruption an app stands in for, if it is a corrupt store's stand-in. */
export const corruptionOf = (app: App): Corruption | undefined =>
  (app as unknown as Record<PropertyKey, unknown>)[CORRUPTION] as Corruption | undefined;
