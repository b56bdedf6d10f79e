import { filter, firstValueFrom, map, merge, timeout } from '../events/rx.js';
import {
  ProjectionTimeoutError,
  ReadModelFailedError,
  type ReadModelFault,
} from './engine-types.js';
import { visible, type Lane } from './lane.js';

const failedBefore = (position: number, lanes: readonly Lane[]) =>
  lanes
    .filter((l) => l.fault && visible(l) < position)
    .map((l) => ({ name: l.projector.name, position: visible(l), fault: l.fault! }));

/**
 * Until every lane's reads see `position`. A lane that failed before it answers at once with
 * its fault (ReadModelFailedError): its waiters would wait out the timeout for nothing, and
 * the other lanes' waiters never wait on it. One that is only behind is waited for `timeoutMs`.
 */
export const waitForLanes = async (
  lanes: readonly Lane[],
  position: number,
  timeoutMs: number,
): Promise<void> => {
  const behind = lanes.filter((l) => visible(l) < position);
  if (behind.length === 0) return;
  const failed = failedBefore(position, behind);
  if (failed.length > 0) throw new ReadModelFailedError(position, failed);
  const reached = (l: Lane) =>
    firstValueFrom(
      merge(
        l.folded$.pipe(filter((p) => p >= position)),
        l.faulted$.pipe(
          map((fault: ReadModelFault): number => {
            throw new ReadModelFailedError(position, [
              { name: l.projector.name, position: visible(l), fault },
            ]);
          }),
        ),
      ).pipe(timeout(timeoutMs)),
    );
  try {
    await Promise.all(behind.map(reached));
  } catch (error) {
    if (error instanceof ReadModelFailedError) throw error;
    const late = lanes.filter((l) => visible(l) < position);
    throw new ProjectionTimeoutError(
      position,
      late.map((l) => ({ name: l.projector.name, position: visible(l) })),
    );
  }
};
