import type { LogEvent } from '../events/index.js';
import type { Lane } from './lane.js';

/**
 * Event type → the lanes whose projector folds it, built once from the projectors' `handles`.
 * A page of the log is handed only to the lanes that handle one of its types: the others are
 * idle on it, and an idle lane costs a set lookup, whatever the number of read models.
 */
export const laneIndex = (lanes: readonly Lane[]) => {
  const byType = new Map<string, Lane[]>();
  for (const lane of lanes)
    for (const type of lane.handles) byType.set(type, [...(byType.get(type) ?? []), lane]);
  return {
    /** The lanes that handle at least one event of the page. */
    touched(events: readonly LogEvent[]): Set<Lane> {
      const types = new Set<string>();
      let last: string | undefined;
      // a page is mostly runs of one type: skip the set for a repeat of the last one
      for (const e of events) if (e.type !== last) types.add((last = e.type));
      const touched = new Set<Lane>();
      for (const type of types) for (const lane of byType.get(type) ?? []) touched.add(lane);
      return touched;
    },
  };
};
export type LaneIndex = ReturnType<typeof laneIndex>;
