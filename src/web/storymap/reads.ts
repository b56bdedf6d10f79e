import type { OrderRow } from '../../projections/storymap/order.js';
import { buildOrder, type BuildOrder } from '../../projections/storymap/order.js';
import {
  orderRow,
  STORYMAP_BUILD_ORDER,
  buildOrderModel,
} from '../../projections/storymap/build-order.js';
import { STORYMAP_STORIES, storyMapModel } from '../../projections/storymap/stories.js';
import type { MapView } from '../../projections/storymap/views.js';
import { html, type Html } from '../html.js';
import type { PageContext, Rendered } from '../page.js';
import { projectNotFound, projectOf } from '../project/pages.js';

/** The read models a story-map page reads (time travel rebuilds only these). */
export const STORYMAP_MODELS = ['projects', STORYMAP_STORIES, STORYMAP_BUILD_ORDER];

/**
 * The story map as a page reads it: from `ctx.models`, the live read models or those rebuilt
 * as of a past position, so every story-map page travels in time the same way. The map's
 * queries in src/app read the live models only.
 */
export const storyMapAt = (ctx: PageContext) => {
  const map = (projectId: string) => storyMapModel.map.get(ctx.models, projectId);
  const rows = async (projectId: string): Promise<OrderRow[]> =>
    (await buildOrderModel.rows.values(ctx.models, projectId)).map(orderRow);
  const order = async (projectId: string): Promise<BuildOrder> => buildOrder(await rows(projectId));
  return { map, rows, order };
};

export type MapPage = { map: MapView; rows: OrderRow[] };

/** A project the principal may see with its story map, or the page that says why not. */
export const mapOf = async (
  ctx: PageContext,
): Promise<{ ok: true; map: MapView } | { ok: false; page: Rendered }> => {
  const id = ctx.params.project!;
  if (!(await projectOf(ctx, id, 'storymap'))) return { ok: false, page: projectNotFound(id) };
  const map = await storyMapAt(ctx).map(id);
  if (!map)
    return {
      ok: false,
      page: {
        title: 'No story map',
        status: 404,
        body: html`<p>
          Project <code>${id}</code> has no story
          map${ctx.at !== undefined ? ' at this position' : ''}. An agent starts one with the story
          map's <code>create_project</code> tool.
        </p>`,
      },
    };
  return { ok: true, map };
};

/** Story statuses in the order a story moves through them, with how each reads to a person. */
export const STATUS_LABELS: Record<OrderRow['status'], string> = {
  todo: 'to do',
  ready_for_dev: 'ready for dev',
  in_progress: 'in progress',
  needs_rework: 'needs rework',
  done: 'done (built)',
  approved: 'approved',
};

/** A status as a badge: coloured by its class, and always named in words (not colour alone). */
export const statusBadge = (status: OrderRow['status']): Html =>
  html`<span class="status st-${status}">${STATUS_LABELS[status]}</span>`;

/** The path of a story's page (keys are readable and stable; the id works too). */
export const storyPath = (projectId: string, key: string) =>
  `/projects/${encodeURIComponent(projectId)}/stories/${encodeURIComponent(key)}`;
