import type { ModelStore } from '../events/index.js';
import type { Lane } from './lane.js';
import { checkpointKey } from './projector.js';

/**
 * On a clean stop: the checkpoints that idle pages moved only in memory, written, so a restart
 * reads none of those pages again. Only lanes with nothing in flight and nothing failed or owed
 * (their checkpoint is then what their store holds); a refused write loses nothing, the lane
 * merely rereads those pages, so it is reported and not thrown.
 */
export const saveIdleCheckpoints = async (
  lanes: readonly Lane[],
  store: ModelStore,
  onError?: (error: unknown, projector: string) => void,
): Promise<void> => {
  const behind = lanes.filter((l) => l.unsaved > 0 && !l.fault && !l.owed);
  if (behind.length === 0) return;
  try {
    await store.write(
      behind.map((l) => ({
        type: 'put' as const,
        key: checkpointKey(l.projector.name),
        value: l.checkpoint,
      })),
    );
    for (const l of behind) l.unsaved = 0;
  } catch (error) {
    for (const l of behind) onError?.(error, l.projector.name);
  }
};
