import { hostname } from 'node:os';
import { isDomainError } from '../../commands/errors.js';
import { projectCommands } from '../../commands/project/commands.js';
import { SYSTEM } from '../../commands/principal.js';
import type { EventLog } from '../../events/index.js';
import { projectQueries } from '../../projections/project/queries.js';
import type { ResolvedRoot } from './root.js';

/**
 * The project a root belongs to: the one shared project aggregate every surface uses, found by
 * its bound canonical-root hash. A root no project holds yet gets a project whose id is derived
 * from the hash, so two processes that meet a new root at once converge on one project.
 * (The kernel's `app.projects` root binding replaces this lookup once it lands; this is the
 * one function that knows.)
 */
export const projectIdForRootHash = (hash: string): string => `intent-${hash.slice(0, 32)}`;

export const intentProjects = (log: EventLog, waitFor: (position: number) => Promise<void>) => {
  const queries = projectQueries(log.models);
  const commands = projectCommands(log);
  const system = { principal: SYSTEM };
  // a root stays bound to its project: once found, it is not looked up again by this process
  const known = new Map<string, string>();

  /** The bound project, or undefined: never writes (intent_status, Hooks). */
  const lookup = async (root: ResolvedRoot): Promise<string | undefined> => {
    const cached = known.get(root.hash);
    if (cached !== undefined) return cached;
    await waitFor(await log.head());
    const found = await queries.projectOfRoot(root.hash);
    if (found !== undefined) known.set(root.hash, found);
    return found;
  };

  const ensure = async (root: ResolvedRoot): Promise<string> => {
    const bound = await lookup(root);
    if (bound !== undefined) return bound;
    const project_id = projectIdForRootHash(root.hash);
    await commands
      .create({ project_id, name: 'intent project', description: null }, system)
      .catch((error: unknown) => {
        if (!(isDomainError(error) && error.code === 'invalid_state')) throw error;
      });
    await commands.bindRoot({ project_id, root_hash: root.hash, device: hostname() }, system);
    known.set(root.hash, project_id);
    return project_id;
  };

  /**
   * The project a task start acts in: the bound one, or the one the root will be bound to
   * once the start succeeded (`ensure`), so a refused start leaves no project behind.
   */
  const planned = async (root: ResolvedRoot) => {
    const bound = await lookup(root);
    return bound === undefined
      ? { project_id: projectIdForRootHash(root.hash), bound: false }
      : { project_id: bound, bound: true };
  };

  return { lookup, ensure, planned };
};
