import type { Desk } from '../../commands/missions/desk-state.js';
import type { DeskEvent } from '../../commands/missions/desk-events.js';
import type { Mount } from '../../commands/missions/mounts.js';
import { deskEvents } from '../../events/missions/index.js';
import type { ModelStore } from '../../events/index.js';
import { defineProjector, modelKey, modelKeyPrefix } from '../projector.js';
import { assembleDesk, DeskKeys, foldDeskItems, type DeskHead } from './desk-items.js';

/**
 * The missions read model: each project's desk as the query tools show it, and the mounts by
 * device (which directories the artifact projection and its audit look at). Folded from the
 * desk streams and every `mission_project.mounted`, the earlier mount table's included.
 */
export const MISSIONS_MODEL = 'missions';

export const MissionsKeys = {
  /** every key of a project's desk, one per item (desk-items.ts) */
  desk: DeskKeys.all,
  mount: (deviceId: string, projectId: string) => modelKey('mount', deviceId, projectId),
  mountsOn: (deviceId: string) => modelKeyPrefix('mount', deviceId),
  /** which project a directory is on a device: one at a time, as the kernel's root binding */
  path: (deviceId: string, localPath: string) => modelKey('path', deviceId, localPath),
  /** which project a mission, session, intake, checkpoint or learning block id is in (calls that name no project) */
  id: (id: string) => modelKey('id', id),
};

/** The id each event makes, which a later call may name instead of its project. */
const idOf = (event: DeskEvent): string | undefined => {
  switch (event.type) {
    case 'mission.opened':
      return event.data.mission_id;
    case 'lease.granted':
      return event.data.session_id;
    case 'intake.captured':
      return event.data.intake_id;
    case 'mission_checkpoint.recorded':
      return event.data.checkpoint_id;
    case 'learning_block.started':
      return event.data.block_id;
    default:
      return undefined;
  }
};

export const missionsProjector = defineProjector({
  name: MISSIONS_MODEL,
  // 2: the id index (`id/<id>`); 3: learning blocks; 4: the desk per item (desk-items.ts)
  version: 4,
  events: deskEvents,
  async apply(event, tx) {
    if (event.type === 'mission_project.mounted') {
      const { reason: _r, ...mount } = event.data;
      const { device_id, project_id, local_path } = mount;
      // the directory leaves the project that held it; the project leaves its old directory
      const holder = await tx.get<string>(MissionsKeys.path(device_id, local_path));
      if (holder !== undefined && holder !== project_id)
        tx.del(MissionsKeys.mount(device_id, holder));
      const previous = await tx.get<Mount>(MissionsKeys.mount(device_id, project_id));
      if (previous && previous.local_path !== local_path)
        tx.del(MissionsKeys.path(device_id, previous.local_path));
      tx.put(MissionsKeys.mount(device_id, project_id), mount satisfies Mount);
      tx.put(MissionsKeys.path(device_id, local_path), project_id);
      return;
    }
    const deskEvent = { type: event.type, data: event.data } as DeskEvent;
    await foldDeskItems(tx, deskEvent, event.global_position);
    const id = idOf(deskEvent);
    if (id !== undefined) tx.put(MissionsKeys.id(id), event.data.project_id);
  },
});

const under = (key: string) => `${MISSIONS_MODEL}/${key}`;

/** Reads of the missions read model. */
export const missionsQueries = (models: ModelStore) => ({
  desk: async (projectId: string): Promise<Desk> => {
    const prefix = under(MissionsKeys.desk(projectId));
    return assembleDesk(prefix, await models.range<unknown>({ prefix }));
  },
  /** the desk's scalars alone (the next step, the proposal, the active mission's id): one key */
  head: (projectId: string) => models.get<DeskHead>(under(DeskKeys.head(projectId))),
  mount: (deviceId: string, projectId: string) =>
    models.get<Mount>(under(MissionsKeys.mount(deviceId, projectId))),
  /** the project an id (mission, session, intake, checkpoint) was made in */
  projectOfId: (id: string) => models.get<string>(under(MissionsKeys.id(id))),
  /** every project mounted on a device, by project id */
  mountsOn: async (deviceId: string): Promise<Mount[]> =>
    (await models.range<Mount>({ prefix: under(MissionsKeys.mountsOn(deviceId)) })).map(
      ([, m]) => m,
    ),
});
