import type { Decider } from '@event-driven-io/emmett';
import type { EventOf } from '../../events/catalog/define.js';
import type { ProjectMounted } from '../../events/catalog/missions.js';
import { streamName } from '../../events/stream-name.js';
import { SYSTEM_PROJECT } from '../ids.js';
import { missionsError } from './errors.js';

/**
 * The mount table: which local directory is which logical project on which device. One stream
 * for the whole ledger, so "a root belongs to one project" is decided in one place. It stays in
 * the missions context until the shared project aggregate binds roots with their paths
 * (docs/decisions.md, "Missions: the mount table").
 */
export const MOUNT_STREAM = streamName({
  aggregateType: 'mission_mounts',
  projectId: SYSTEM_PROJECT,
  aggregateId: 'table',
});

export type Mount = {
  project_id: string;
  device_id: string;
  local_path: string;
  root_hash: string;
  implicit: boolean;
};
export type MountTable = {
  /** project → device → mount */
  projects: Record<string, Record<string, Mount>>;
  /** canonical-root hash → mount */
  roots: Record<string, Mount>;
};

export type MountEvent = EventOf<typeof ProjectMounted>;
export type BindProject = {
  type: 'BindProject';
  data: Mount & { owner_ack: boolean; reason: string };
};

/** The id of a project known only by its directory: derived from the canonical root. */
export const implicitProjectId = (rootHash: string): string => `dir-${rootHash.slice(0, 24)}`;

const decide = ({ data }: BindProject, table: MountTable): MountEvent[] => {
  if (!data.implicit && (data.owner_ack !== true || data.reason.trim() === ''))
    throw missionsError(
      'owner_gate_required',
      'binding a project needs owner_ack=true and a reason',
      {
        gate: 'ack_legacy',
        status: 'owner_ack_required',
      },
    );
  const holder = table.roots[data.root_hash];
  const same = holder?.project_id === data.project_id && holder.device_id === data.device_id;
  if (holder && !same && !holder.implicit)
    throw missionsError(
      'invalid_args',
      'this directory is already the mount of another project or device',
      {
        bound_to: { project_id: holder.project_id, device_id: holder.device_id },
      },
    );
  if (holder && (same || data.implicit)) return [];
  const { owner_ack: _ack, ...mount } = data;
  return [{ type: 'mission_project.mounted', data: mount }];
};

const evolve = (table: MountTable, { data }: MountEvent): MountTable => {
  const { reason: _r, ...mount } = data;
  const projects = { ...table.projects };
  const roots = { ...table.roots };
  // the project's old mount on this device, and an implicit project this root leaves
  const previous = projects[mount.project_id]?.[mount.device_id];
  if (previous) delete roots[previous.root_hash];
  const holder = roots[mount.root_hash];
  if (holder) {
    const { [holder.device_id]: _gone, ...rest } = projects[holder.project_id] ?? {};
    projects[holder.project_id] = rest;
  }
  roots[mount.root_hash] = mount;
  projects[mount.project_id] = { ...projects[mount.project_id], [mount.device_id]: mount };
  return { projects, roots };
};

export const mountDecider: Decider<MountTable, BindProject, MountEvent> = {
  decide,
  evolve,
  initialState: () => ({ projects: {}, roots: {} }),
};
