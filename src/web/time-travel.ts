import type { App } from '../app/app.js';
import { replayModels } from '../app/audit-models.js';
import type { ModelStore } from '../events/index.js';

const KEPT = 4;

/**
 * Read models as of a global position, rebuilt from the log into memory (the audit's replay),
 * for the projectors a page reads. The last few are kept: moving a slider back and forth, or a
 * second page at the same position, costs nothing the second time.
 */
export const timeTravel = (app: App) => {
  const cache = new Map<string, Promise<ModelStore>>();
  return (at: number, models?: readonly string[]): Promise<ModelStore> => {
    const projectors = models
      ? app.projectors.filter((p) => models.includes(p.name))
      : app.projectors;
    const key = `${at}|${projectors.map((p) => p.name).join(',')}`;
    let store = cache.get(key);
    if (!store) {
      store = replayModels(app.log, projectors, at);
      cache.set(key, store);
      store.catch(() => cache.delete(key));
      if (cache.size > KEPT) cache.delete(cache.keys().next().value!);
    }
    return store;
  };
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
