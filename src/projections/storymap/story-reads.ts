import type { ModelStore } from '../../events/index.js';
import { modelKey, modelKeyPrefix } from '../projector.js';
import { readsOf, type RangeRead, type ValueRead } from '../read-model.js';
import type { MapView, StoryView } from './views.js';

/*
 * The keys and typed reads of storymap.stories (its projector is stories.ts): a map's view, the
 * time of its last event (kept apart, so a story's event does not rewrite the map), the stories.
 */

export const STORYMAP_STORIES = 'storymap.stories';

export const StoryMapKeys = {
  map: (projectId: string) => modelKey('map', projectId),
  mapPrefix: modelKeyPrefix('map'),
  /** the time of the map's last event, apart from its view (see the projector) */
  activity: (projectId: string) => modelKey('activity', projectId),
  activityPrefix: modelKeyPrefix('activity'),
  story: (projectId: string, storyId: string) => modelKey('story', projectId, storyId),
  storyPrefix: (projectId: string) => modelKeyPrefix('story', projectId),
};

const maps = readsOf<MapView>(STORYMAP_STORIES);
const activities = readsOf<string>(STORYMAP_STORIES);
const mapView = maps.value(StoryMapKeys.map);
const mapRange = maps.range(() => StoryMapKeys.mapPrefix);
const activity = activities.value(StoryMapKeys.activity);
const activityRange = activities.range(() => StoryMapKeys.activityPrefix);
/** The map's view with the time of its last event (none yet: the view's own, its creation). */
const withActivity = (m: MapView, at: string | undefined): MapView =>
  at === undefined ? m : { ...m, last_activity_at: at };

/** Every map, each with its last activity, by the map's key. */
const mapEntries = async (models: ModelStore): Promise<[string, MapView][]> => {
  const [rows, times] = await Promise.all([
    mapRange.entries(models),
    activityRange.entries(models),
  ]);
  const at = new Map(times.map(([k, t]) => [k.slice(activityRange.prefix().length), t]));
  return rows.map(([k, m]) => [k, withActivity(m, at.get(k.slice(mapRange.prefix().length)))]);
};

/** The story map's reads: a map, every map, a story, a map's stories. */
export const storyMapModel = {
  map: {
    key: mapView.key,
    async get(models: ModelStore, projectId: string): Promise<MapView | undefined> {
      const [m, at] = await Promise.all([
        mapView.get(models, projectId),
        activity.get(models, projectId),
      ]);
      return m && withActivity(m, at);
    },
  } satisfies ValueRead<MapView, [string]>,
  maps: {
    prefix: mapRange.prefix,
    entries: mapEntries,
    values: async (models: ModelStore) => (await mapEntries(models)).map(([, m]) => m),
  } satisfies RangeRead<MapView, []>,
  story: readsOf<StoryView>(STORYMAP_STORIES).value(StoryMapKeys.story),
  stories: readsOf<StoryView>(STORYMAP_STORIES).range(StoryMapKeys.storyPrefix),
};
