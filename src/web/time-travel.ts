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
