import type { EventOf } from '../../events/index.js';
import type { RootClaimed, RootReleased } from '../../events/project/index.js';
import { streamName } from '../../events/stream-name.js';
import { conflict } from '../errors.js';
import { SYSTEM_PROJECT } from '../ids.js';

/** Who holds a root: decided on the root's own stream, so two projects never both hold it. */
export type RootEvent = EventOf<typeof RootClaimed> | EventOf<typeof RootReleased>;
export type RootHolder = { project_id: string | null; device: string | null };

export const rootStream = (rootHash: string): string =>
  streamName({ aggregateType: 'root', projectId: SYSTEM_PROJECT, aggregateId: rootHash });

export const initialRootHolder = (): RootHolder => ({ project_id: null, device: null });

export const evolveRootHolder = (state: RootHolder, event: RootEvent): RootHolder =>
  event.type === 'root.claimed'
    ? { project_id: event.data.project_id, device: event.data.device }
    : initialRootHolder();

/** Claims a root for a project: refused while another project holds it. */
export const claimRoot = (
  holder: RootHolder,
  claim: { root_hash: string; project_id: string; device: string },
): RootEvent[] => {
  if (holder.project_id !== null && holder.project_id !== claim.project_id)
    throw conflict('this root is bound to another project', {
      reason: 'root_bound_elsewhere',
      root_hash: claim.root_hash,
      project_id: holder.project_id,
    });
  if (holder.project_id === claim.project_id && holder.device === claim.device) return [];
  return [{ type: 'root.claimed', data: claim }];
};

export const releaseRoot = (holder: RootHolder, rootHash: string): RootEvent[] =>
  holder.project_id === null
    ? []
    : [{ type: 'root.released', data: { root_hash: rootHash, project_id: holder.project_id } }];
