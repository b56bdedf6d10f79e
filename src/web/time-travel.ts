import type { App } from '../app/app.js';
import type { ModelStore } from '../events/index.js';
import { pastModels } from './past-models.js';

/**
 * Read models as of a global position, rebuilt from the log into memory for the projectors a
 * page reads (`pastModels`: from the nearest kept earlier store, not from position 0).
 */
export const timeTravel = (app: App) => {
  const past = pastModels(app.log);
  return (at: number, models?: readonly string[]): Promise<ModelStore> =>
    past.at(at, models ? app.projectors.filter((p) => models.includes(p.name)) : app.projectors);
};

/** `2026-12-01T12:00` (a datetime-local field, read as UTC) or any ISO time, in ms; else NaN. */
export const parseTime = (text: string): number => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return Number.NaN;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  return Date.parse(zoned);
};

/**
 * The last position whose event was committed at or before `time` (0: before the first event).
 * A binary search over the log, one one-event read per step: positions are dense and the
 * writer stamps events in commit order, so times do not fall as positions rise.
 */
export const positionAtTime = async (app: App, time: number): Promise<number> => {
  let low = 0;
  let high = await app.log.head();
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const [event] = await app.log.readAll({ after: mid - 1, limit: 1 });
    if (event && Date.parse(event.created_at) <= time) low = mid;
    else high = mid - 1;
  }
  return low;
};

/** When the event at `position` was committed, or undefined (position 0, or none). */
export const timeOfPosition = async (app: App, position: number): Promise<string | undefined> => {
  if (position < 1) return undefined;
  const [event] = await app.log.readAll({ after: position - 1, limit: 1 });
  return event?.created_at;
};
