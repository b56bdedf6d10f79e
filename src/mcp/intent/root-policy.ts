import type { ResolvedRoot } from '../../app/intent/root.js';
import { onKernelFileSystem } from '../../app/project/files.js';
import { rootGrant } from '../../app/project/roots.js';
import { intentError } from '../../commands/intent/errors.js';
import { sessionRoots } from '../client-roots.js';
import type { ToolContext } from '../tool.js';

/**
 * Project directories only where the person running the server allows them, as on the missions
 * surface (app/project/roots.ts): a root the host gave (its sandbox metadata, its one client
 * root) is the client's own; a `project_root` an actor names must be under a root its session
 * declared or a `--project-root` of the server, or already hold a project (named first by
 * someone allowed to); the local user (SYSTEM) names any. A kernel file system (/proc, /sys)
 * holds no project, whoever names it. Refused before anything is appended.
 */
export const requireAllowedRoot = async (
  ctx: ToolContext,
  root: ResolvedRoot,
  bound: boolean,
): Promise<void> => {
  if (await onKernelFileSystem(root.canonical))
    throw intentError(
      'PROJECT_ROOT_INVALID',
      'project_root is on a kernel file system, not a project',
      {
        project_root: root.canonical,
      },
    );
  if (root.source !== 'project_root') return;
  const asker = { principal: ctx.principal, clientRoots: sessionRoots(ctx) };
  if ((await rootGrant(ctx.app, root.canonical, asker, bound)) === undefined)
    throw intentError(
      'PROJECT_ROOT_INVALID',
      'this directory is outside the roots this server allows: a root your client declared, a --project-root of the server, or a directory that already holds a project',
      { project_root: root.canonical, reason: 'not_allowed' },
    );
};
