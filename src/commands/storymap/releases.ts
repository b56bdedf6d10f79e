import { invalidArgument } from '../errors.js';
import { GO_LIVE, type MapEvent } from './map-state.js';

/**
 * Releases are created by placing stories in them (contracts/storymap.md, "Releases"): an
 * existing number, the next sequential one (which creates it), or 1000, "Go live".
 */
export const nextFreeRelease = (releases: ReadonlySet<number>): number => {
  let highest = 0;
  for (const order of releases) if (order !== GO_LIVE && order > highest) highest = order;
  return highest + 1;
};

export const releaseLabel = (order: number): string =>
  order === GO_LIVE ? 'Go live' : `Release ${order}`;

/**
 * Places a story in release `order`, creating it when it is new; `known` is the set of
 * releases so far (extended here, so rows of one batch create releases in sequence).
 */
export const placeInRelease = (
  projectId: string,
  known: Set<number>,
  order: number,
  field: string,
): MapEvent[] => {
  if (known.has(order)) return [];
  const next = nextFreeRelease(known);
  if (order !== next && order !== GO_LIVE)
    throw invalidArgument(
      `Release ${order} is out of sequence: the next available release number is ${next}.`,
      { field, release: order, next_available: next },
    );
  known.add(order);
  return [
    {
      type: 'storymap.release_created',
      data: { project_id: projectId, release_order: order, label: releaseLabel(order) },
    },
  ];
};
