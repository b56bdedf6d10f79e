import { join } from 'node:path';
import { isDomainError } from '../../commands/errors.js';
import { missionsError } from '../../commands/missions/errors.js';
import { MISSIONS_MODEL, missionsQueries } from '../../projections/missions/desk.js';
import type { App } from '../app.js';
import type { Caller, ProjectRef, Resolved, MissionsMounts } from './mounts.js';
import { makeDirs } from '../../events/make-dirs.js';

/**
 * Which project a call means when it names none (HAI-MCP's tools take ids, not projects): the
 * project its mission, session, intake or checkpoint id was made in (the missions read model's
 * id index), else the home project of the local user. Resolving appends nothing.
 */

export type ViaKind = 'mission' | 'session' | 'intake' | 'checkpoint' | 'learning_block';
/** the id a call carries, by which its project is found when it names none */
export type Via = { kind: ViaKind; id: string };
export type CallRef = ProjectRef & { via?: Via };

/** The home project: `<data dir>/home`, HAI-MCP's one global inbox, lanes, intake and stop. */
export const homeProjectDir = (dataDir: string): string => join(dataDir, 'home');

/**
 * The refusal of an id that is unknown or in a project the caller may not see, word for word the
 * same in both cases (a stranger learns nothing): a mission is not active; anything else is not
 * found (HAI-MCP: "session not found: …").
 */
const unknownId = (via: Via) =>
  via.kind === 'mission'
    ? missionsError('mission_not_active', 'the mission is not active', {
        mission_id: via.id,
        status: 'unknown',
      })
    : missionsError('invalid_args', `${via.kind} not found: ${via.id}`, {
        [`${via.kind}_id`]: via.id,
        ...(via.kind === 'session' ? { classification: 'unclear', required_action: 'pause' } : {}),
      });

export const callResolver = (app: App, mounts: MissionsMounts) => {
  const read = () => missionsQueries(app.log.models);

  const byVia = async (via: Via, deviceId: string | undefined, caller: Caller) => {
    await app.waitFor(await app.log.head(), [MISSIONS_MODEL]);
    const project_id = await read().projectOfId(via.id);
    if (project_id === undefined) throw unknownId(via);
    // a call resolved by its session works on the lease's device, unless it names one
    const leased =
      via.kind === 'session' && deviceId === undefined
        ? ((await read().desk(project_id)).leases.get(via.id)?.device_id ?? undefined)
        : undefined;
    const device_id = deviceId ?? leased;
    try {
      return await mounts.resolve(
        { project_id, ...(device_id === undefined ? {} : { device_id }) },
        caller,
      );
    } catch (error) {
      if (isDomainError(error) && error.code === 'missing_project') throw unknownId(via);
      throw error;
    }
  };

  /** The project a call names, or its id's, or the home project; for this caller. */
  return async (ref: CallRef, caller: Caller): Promise<Resolved> => {
    const { via, ...named } = ref;
    if (named.project_path !== undefined || named.project_id !== undefined)
      return mounts.resolve(named, caller);
    if (via) return byVia(via, named.device_id, caller);
    if (caller.principal.kind !== 'system')
      throw missionsError('invalid_args', 'name the project: project_path or project_id');
    const home = homeProjectDir(app.dataDir);
    makeDirs(home, 0o700);
    return mounts.resolve({ project_path: home }, caller);
  };
};
