import { invalidArgument, notFound } from '../../commands/errors.js';
import type { Principal } from '../../commands/principal.js';
import { VISION_QUESTIONS } from '../../commands/storymap/vision.js';
import { VisionKey } from '../../events/storymap/index.js';
import {
  orderRow,
  STORYMAP_BUILD_ORDER,
  buildOrderModel,
} from '../../projections/storymap/build-order.js';
import { buildOrder, type BuildOrder, type OrderRow } from '../../projections/storymap/order.js';
import { STORYMAP_STORIES, storyMapModel } from '../../projections/storymap/stories.js';
import type { MapView, StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { callerOf } from './access.js';

const MODELS = [STORYMAP_STORIES, STORYMAP_BUILD_ORDER];

/** The vision's state as get_vision and list_projects report it. */
export const visionState = (map: MapView) => {
  const unanswered = VisionKey.options.filter((k) => !map.vision[k]);
  const answered = VisionKey.options.length - unanswered.length;
  const status = answered === 0 ? 'missing' : unanswered.length === 0 ? 'complete' : 'draft';
  return { status, progress: `${answered}/${VisionKey.options.length}`, unanswered } as const;
};

export const visionQuestions = (map: MapView) =>
  VISION_QUESTIONS.map((q) => ({
    ...q,
    text: map.vision[q.key]?.text ?? null,
    answered_at: map.vision[q.key]?.answered_at ?? null,
  }));

/** The story map's reads: every one waits until the read models hold all committed before it. */
export const storyMapReads = (app: App) => {
  const models = app.log.models;
  const fresh = async () => app.waitFor(await app.log.head(), MODELS);

  const map = async (projectId: string, principal: Principal) => {
    const caller = await callerOf(app, projectId, principal);
    await fresh();
    const view = await storyMapModel.map.get(models, projectId);
    if (!view) throw notFound('No story map found for this project', { project_id: projectId });
    return { caller, map: view };
  };
  // The rows change only when the log does: reads at one head share them (and their order).
  let memo: { key: string; rows: OrderRow[]; order?: BuildOrder } | undefined;
  const rowsAt = async (projectId: string) => {
    const head = await app.log.head();
    await app.waitFor(head, [STORYMAP_BUILD_ORDER]);
    const key = `${head}/${projectId}`;
    if (memo?.key !== key) {
      memo = { key, rows: (await buildOrderModel.rows.values(models, projectId)).map(orderRow) };
    }
    return memo;
  };
  const rows = async (projectId: string): Promise<OrderRow[]> => (await rowsAt(projectId)).rows;
  /** The build order of the rows at the log's head, computed once per head. */
  const order = async (projectId: string): Promise<BuildOrder> => {
    const at = await rowsAt(projectId);
    at.order ??= buildOrder(at.rows);
    return at.order;
  };
  const stories = async (projectId: string): Promise<StoryView[]> =>
    storyMapModel.stories.values(models, projectId);
  const story = (projectId: string, id: string) => storyMapModel.story.get(models, projectId, id);

  /** Key, UUID, UUID prefix, or `#5` (the fifth story of the build order). */
  const resolve = async (projectId: string, ref: string): Promise<StoryView> => {
    const all = await rows(projectId);
    const wanted = ref.trim();
    let id: string | undefined;
    const seq = /^#(\d+)$/.exec(wanted);
    if (seq) id = (await order(projectId)).order[Number(seq[1]) - 1]?.id;
    else {
      const exact = all.find((r) => r.id === wanted || r.key === wanted.toUpperCase());
      const prefixed =
        wanted.length >= 4 ? all.filter((r) => r.id.startsWith(wanted.toLowerCase())) : [];
      id = exact?.id ?? (prefixed.length === 1 ? prefixed[0]!.id : undefined);
    }
    const view = id === undefined ? undefined : await story(projectId, id);
    if (!view) throw notFound(`No story found matching "${ref}"`, { story_id: ref });
    return view;
  };

  return { fresh, map, rows, order, stories, story, resolve, models };
};

export type StoryMapReads = ReturnType<typeof storyMapReads>;

/** A release the caller names must exist (check_release_readiness), listing the valid ones. */
export const requireRelease = (map: MapView, order: number) => {
  const release = map.releases.find((r) => r.release_order === order);
  if (!release)
    throw invalidArgument(`Release ${order} doesn't exist.`, {
      valid_releases: map.releases.map((r) => r.release_order),
    });
  return release;
};
