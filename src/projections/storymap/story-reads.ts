import type { ModelStore } from '../../events/index.js';
import { modelKey, modelKeyPrefix } from '../projector.js';
import { readsOf, type RangeRead, type ValueRead } from '../read-model.js';
import type { CiResult } from '../../events/storymap/build-record.js';
import { StoryItemKeys, type StoryHead, type StoryItems, type StoryList } from './story-head.js';
import type { MapView, StoryView } from './views.js';

/*
 * The keys and typed reads of storymap.stories (its projector is stories.ts): a map's view, the
 * time of its last event (kept apart, so a story's event does not rewrite the map), the stories
 * (a head and its items each, story-head.ts, put back together here: the one way to read them).
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

const heads = readsOf<StoryHead>(STORYMAP_STORIES);
const headRead = heads.value(StoryMapKeys.story);
const headRange = heads.range(StoryMapKeys.storyPrefix);
const itemKey = (list: StoryList, p: string, s: string, n: number) =>
  `${STORYMAP_STORIES}/${StoryItemKeys.item(list, p, s, n)}`;
const ciKey = readsOf<CiResult>(STORYMAP_STORIES).value(StoryItemKeys.ci).key;

/** One of a story's lists, whole and in order: one multi-get of the keys its count names. */
export const storyItems = async <L extends StoryList>(
  models: ModelStore,
  head: StoryHead,
  list: L,
): Promise<StoryItems[L][]> => {
  const keys = Array.from({ length: head.counts[list] }, (_, n) =>
    itemKey(list, head.project_id, head.id, n),
  );
  const items = keys.length === 0 ? [] : await models.getMany<StoryItems[L]>(keys);
  return items.filter((x) => x !== undefined);
};

/** The story as get_story shows it, put back together from its head and items. */
export const storyOfHead = async (models: ModelStore, head: StoryHead): Promise<StoryView> => {
  const [tests, feedback, blockers, handoffs, history] = await Promise.all([
    storyItems(models, head, 'tests'),
    storyItems(models, head, 'feedback'),
    storyItems(models, head, 'blockers'),
    storyItems(models, head, 'handoffs'),
    storyItems(models, head, 'history'),
  ]);
  const results =
    tests.length === 0
      ? []
      : await models.getMany<CiResult>(
          tests.map((t) => ciKey(head.project_id, head.id, t.test_id)),
        );
  const ci: Record<string, CiResult> = {};
  tests.forEach((t, i) => {
    const r = results[i];
    if (r)
      Object.defineProperty(ci, t.test_id, {
        value: r,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  });
  const { counts: _c, figures: _f, build: b, ...view } = head;
  return {
    ...view,
    history,
    build: {
      claim: b.claim,
      plan: b.plan,
      feedback,
      tests,
      results: b.results,
      blockers,
      handoffs,
      pr_url: b.pr_url,
      pr_number: b.pr_number,
      completed_at: b.completed_at,
      forced_unmet: b.forced_unmet,
      ci,
      ci_reports: b.ci_reports,
    },
  };
};

const storyEntries = async (models: ModelStore, projectId: string) =>
  Promise.all(
    (await headRange.entries(models, projectId)).map(
      async ([k, h]) => [k, await storyOfHead(models, h)] as [string, StoryView],
    ),
  );

/** The story map's reads: a map, every map, a story (or its head alone), a map's stories. */
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
  /** a story without its lists (tests, feedback, blockers, hand-offs, history): a bounded read */
  head: headRead,
  story: {
    key: headRead.key,
    async get(models: ModelStore, projectId: string, id: string) {
      const head = await headRead.get(models, projectId, id);
      return head && storyOfHead(models, head);
    },
  } satisfies ValueRead<StoryView, [string, string]>,
  stories: {
    prefix: headRange.prefix,
    entries: storyEntries,
    values: async (models: ModelStore, projectId: string) =>
      (await storyEntries(models, projectId)).map(([, v]) => v),
  } satisfies RangeRead<StoryView, [string]>,
};
