import { notFound } from '../../commands/errors.js';
import { principalId, type Principal } from '../../commands/principal.js';
import { loadProject } from '../../commands/project/commands.js';
import { roleOf } from '../../commands/project/index.js';
import type { Caller } from '../../commands/storymap/access.js';
import type { AppendMeta } from '../../events/index.js';
import type { App } from '../app.js';

/** The contract's refusal for a project that does not exist and one the caller cannot reach. */
export const NO_PROJECT = 'Project not found or access denied';

/**
 * The caller's story-map role in a project, from the project aggregate's roster. The local user
 * (the SYSTEM principal over stdio) acts as the owner of every project on its own machine.
 */
export const callerOf = async (
  app: App,
  projectId: string,
  principal: Principal,
): Promise<Caller> => {
  const project = await loadProject(app.log, projectId);
  const role = project.exists ? roleOf(project, principal, 'storymap') : undefined;
  if (!role) throw notFound(NO_PROJECT, { project_id: projectId });
  return { actor_id: principalId(principal), role: role === 'SYSTEM' ? 'owner' : role };
};

export const metaOf = (caller: Caller): AppendMeta => ({
  actor_id: caller.actor_id,
  actor_role: caller.role,
  correlation_id: null,
  causation_event_id: null,
});
