import { hostname } from 'node:os';
import { requireCapability } from '../../commands/storymap/access.js';
import type { Principal } from '../../commands/principal.js';
import { projectQueries } from '../../projections/project/queries.js';
import type { App } from '../app.js';
import { canonicalRoot, rootHash } from '../project/canonical-root.js';
import { callerOf } from './access.js';

/**
 * The story map's repository root: a local directory the founder bound to the project
 * (`intentlog founder root`), found among the directories the call can name — the host's
 * sandbox directory, the client's roots, the server's working directory. The log keeps only
 * the root's hash, so the path must come from the call's side; a directory the project is not
 * bound to is never read.
 */
export type RootCandidates = () => Promise<readonly string[]>;

export type RepoRoot =
  { found: true; path: string } | { found: false; reason: string; bound_roots: number };

export const findRepoRoot = async (
  app: App,
  projectId: string,
  candidates: RootCandidates,
): Promise<RepoRoot> => {
  await app.waitFor(await app.log.head(), ['projects']);
  const queries = projectQueries(app.log.models);
  const bound = (await queries.project(projectId))?.roots.length ?? 0;
  for (const path of await candidates()) {
    const canonical = await canonicalRoot(path).catch(() => undefined);
    if (canonical === undefined) continue;
    if ((await queries.projectOfRoot(rootHash(canonical))) === projectId)
      return { found: true, path: canonical };
  }
  return {
    found: false,
    bound_roots: bound,
    reason:
      bound === 0
        ? 'no repository is bound to this project: bind one with `intentlog founder root <project> <dir>`'
        : 'the project has a bound repository, but not one this call can name (the client’s roots, the host sandbox or the server’s working directory)',
  };
};

/** Binds a local directory to the project (by its hash), as the founder's CLI does. */
export const bindRepoRoot = async (
  app: App,
  args: { project_id: string; dir: string },
  principal: Principal,
) => {
  requireCapability(await callerOf(app, args.project_id, principal), 'own');
  const canonical = await canonicalRoot(args.dir);
  const root_hash = rootHash(canonical);
  const holder = await projectQueries(app.log.models).projectOfRoot(root_hash);
  if (holder === args.project_id) return { path: canonical, bound: false };
  await app.projects.bindRoot(
    { project_id: args.project_id, root_hash, device: hostname() },
    { principal },
  );
  return { path: canonical, bound: true };
};
