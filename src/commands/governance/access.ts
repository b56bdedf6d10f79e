import type { EventLog } from '../../events/index.js';
import { forbidden, notFound } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Project } from '../project/index.js';
import { loadProject } from '../project/commands.js';
import type { Caller } from './roles.js';
import { own } from '../../events/own.js';

export type Access = { caller: Caller; project: Project };

/**
 * "Every project-scoped call resolves the authenticated principal to one active membership":
 * read from the project's own stream (authoritative, never a lagging read model). The system
 * principal passes as SYSTEM, which the role rules then admit only where the contract says.
 */
export const resolveCaller = async (
  log: EventLog,
  projectId: string,
  principal: Principal,
): Promise<Access> => {
  const project = await loadProject(log, projectId);
  if (!project.exists) throw notFound('project not found', { project_id: projectId });
  if (principal.kind === 'system')
    return { caller: { actor_id: 'system', role: 'SYSTEM' }, project };
  const member = own(project.members, principal.actor_id);
  const role = member?.roles.governance;
  if (!member || !role)
    throw forbidden('the caller has no active membership in this project', {
      project_id: projectId,
      actor_id: principal.actor_id,
    });
  return { caller: { actor_id: member.actor_id, role }, project };
};
