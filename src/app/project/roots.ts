import { realpath, stat } from 'node:fs/promises';
import type { Principal } from '../../commands/principal.js';
import type { App } from '../app.js';
import { isUnder } from './files.js';
import { localFilePath } from './host-root.js';

/**
 * Where a caller may name a project directory: only where the person running the server allows
 * it (docs/decisions.md, "Project directories"). The local user (the SYSTEM principal: stdio
 * without --actor, or a SYSTEM token) is that person, so any directory it names is allowed. An
 * actor may name a directory under a root the server was started with (`--project-root`), under
 * a root its client declared (MCP `roots/list` of the session), or one an owner bound with
 * consent (the context says which are bound).
 */

const serverRoots = new WeakMap<App, readonly string[]>();

/** The server's `--project-root` directories, canonical; refuses one that is no directory. */
export const allowProjectRoots = async (app: App, dirs: readonly string[]): Promise<void> => {
  const canonical = await Promise.all(
    dirs.map(async (dir) => {
      const real = await realpath(dir).catch(() => undefined);
      if (real === undefined || !(await stat(real)).isDirectory())
        throw new Error(`--project-root ${dir}: not an existing directory`);
      return real;
    }),
  );
  serverRoots.set(app, canonical);
};

/** The client's declared roots as canonical local directories (those that exist here). */
export const canonicalClientRoots = async (uris: readonly string[]): Promise<string[]> => {
  const paths = uris.map(localFilePath).filter((p): p is string => p !== undefined);
  const real = await Promise.all(paths.map((p) => realpath(p).catch(() => undefined)));
  return real.filter((p): p is string => p !== undefined);
};

/** Who asks, and what its session declared. */
export type RootAsker = {
  principal: Principal;
  /** the client's declared roots, canonical (asked only when needed) */
  clientRoots: () => Promise<readonly string[]>;
};

export type RootGrant = 'local_user' | 'bound' | 'server_root' | 'client_root';

/**
 * Why `root` (canonical) may be named by this caller, or undefined when it may not. `bound`:
 * the context found the directory bound with an owner's consent.
 */
export const rootGrant = async (
  app: App,
  root: string,
  asker: RootAsker,
  bound: boolean,
): Promise<RootGrant | undefined> => {
  if (asker.principal.kind === 'system') return 'local_user';
  if (bound) return 'bound';
  if ((serverRoots.get(app) ?? []).some((r) => isUnder(r, root))) return 'server_root';
  if ((await asker.clientRoots()).some((r) => isUnder(r, root))) return 'client_root';
  return undefined;
};
