import type { OrderRow } from '../../projections/storymap/order.js';
import type { MapView } from '../../projections/storymap/views.js';
import { href, html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import {
  mapOf,
  STATUS_LABELS,
  STORYMAP_MODELS,
  statusBadge,
  storyMapAt,
  storyPath,
} from './reads.js';

const byKey = (a: OrderRow, b: OrderRow) => a.number - b.number;

/** The cell a live story's card sits in (the live script finds it by this name). */
const cellOf = (r: Pick<OrderRow, 'release' | 'activity'>) =>
  `${r.release}/${encodeURIComponent(r.activity)}`;

/**
 * A story's card, on one line: the board draws 2,000 of them, and the markup's indentation was
 * three whitespace nodes per card for the browser to parse. The link is relative to the board
 * (`/projects/<id>/storymap`): the project's id once per page, not once per card.
 */
// prettier-ignore
const card = (ctx: PageContext, r: OrderRow): Html =>
  html`<li class="card st-${r.status}"><a href="${href(`stories/${encodeURIComponent(r.key)}`, { at: ctx.at })}"><span class="key">${r.key}</span> ${r.title}</a> ${statusBadge(r.status)}</li>`;

const releasePath = (projectId: string, order: number) =>
  `/projects/${encodeURIComponent(projectId)}/releases/${order}`;

/** The release rows: every labelled release, and any release a story sits in without a label. */
const releasesOf = (map: MapView, rows: readonly OrderRow[]) => {
  const labelled = new Map(map.releases.map((r) => [r.release_order, r.label]));
  for (const r of rows) if (!labelled.has(r.release)) labelled.set(r.release, '(no label)');
  return [...labelled].sort(([a], [b]) => a - b);
};

/** Activities in map order; a story naming an activity the map lacks gets its own column. */
const activitiesOf = (map: MapView, rows: readonly OrderRow[]) => {
  const names = [...map.activities].sort((a, b) => a.position - b.position).map((a) => a.name);
  for (const r of rows) if (!names.includes(r.activity)) names.push(r.activity);
  return names;
};

const legend = html`<ul class="legend" aria-label="Status colours">
  ${Object.keys(STATUS_LABELS).map((s) => html`<li>${statusBadge(s as OrderRow['status'])}</li>`)}
</ul>`;

const board = (ctx: PageContext, map: MapView, rows: readonly OrderRow[]): Html => {
  const activities = activitiesOf(map, rows);
  const cells = new Map<string, OrderRow[]>();
  for (const r of [...rows].sort(byKey)) {
    const k = `${r.release}\u0000${r.activity}`;
    cells.set(k, [...(cells.get(k) ?? []), r]);
  }
  if (rows.length === 0) return html`<p>No live stories yet.</p>`;
  return html`<div class="board-scroll" tabindex="0" role="region" aria-label="Story map board">
    <table class="board">
      <caption>
        Activities as columns, releases as rows
      </caption>
      <thead>
        <tr>
          <td></td>
          ${activities.map((a) => html`<th scope="col">${a}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${releasesOf(map, rows).map(
          ([order, label]) =>
            html`<tr>
              <th scope="row">
                <a
                  href="${href(releasePath(map.project_id, order), { at: ctx.at })}"
                  title="Release ${order}: progress over time"
                  >Release ${order}</a
                ><br /><small>${label}</small>
              </th>
              ${activities.map((a) => {
                const here = cells.get(`${order}\u0000${a}`) ?? [];
                return html`<td data-cell="${cellOf({ release: order, activity: a })}">
                  ${
                    here.length === 0
                      ? ''
                      : html`<ul class="cards">
                          ${here.map((r) => card(ctx, r))}
                        </ul>`
                  }
                </td>`;
              })}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
};

const cancelledList = (ctx: PageContext, projectId: string, rows: readonly OrderRow[]) =>
  rows.length === 0
    ? html`<p>None.</p>`
    : html`<ul class="cards cancelled">
        ${[...rows].sort(byKey).map(
          (r) =>
            html`<li class="card">
              <a href="${href(storyPath(projectId, r.key), { at: ctx.at })}"
                ><span class="key">${r.key}</span> ${r.title}</a
              >
              <small>cancelled${r.cancellation_reason ? `: ${r.cancellation_reason}` : ''}</small>
            </li>`,
        )}
      </ul>`;

const summary = (map: MapView, rows: readonly OrderRow[]): Html => {
  const live = rows.filter((r) => r.cancelled_at === null);
  const done = live.filter((r) => r.status === 'done' || r.status === 'approved').length;
  return html`<p id="board-summary">
    ${map.idea} <br /><strong>${live.length}</strong> live stories, ${done} built or approved,
    ${rows.length - live.length} cancelled${map.archived ? html`. <strong>Archived.</strong>` : ''}
  </p>`;
};

/**
 * The cards of some stories as they are now, for the live script to patch the board with
 * instead of fetching all of it (`?fragment=cards&stories=<id>,<id>`): each card with the cell
 * it belongs in (null: it is off the board, cancelled or gone, which the script answers with a
 * full refresh), and the summary line.
 */
const MAX_CARDS = 200;

const cards = async (ctx: PageContext) => {
  const found = await mapOf(ctx);
  if (!found.ok) return undefined;
  const { map } = found;
  const wanted = new Set((ctx.url.searchParams.get('stories') ?? '').split(',').filter(Boolean));
  // more than a page of cards: the script refreshes the whole region instead
  if (wanted.size > MAX_CARDS) return undefined;
  const rows = await storyMapAt(ctx).rows(map.project_id);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    summary: summary(map, rows).value,
    cards: [...wanted].map((id) => {
      const r = byId.get(id);
      return r && r.cancelled_at === null
        ? {
            id,
            key: r.key,
            number: r.number,
            cell: cellOf(r),
            html: card(ctx, r).value,
          }
        : { id, key: null, number: null, cell: null, html: null };
    }),
  };
};

/** The story map as a board: activities as columns, releases as rows, stories as cards. */
export const storyBoardPage = definePage({
  path: '/projects/:project/storymap',
  projectTab: 'Story map',
  models: STORYMAP_MODELS,
  fragments: { cards },
  async render(ctx) {
    const found = await mapOf(ctx);
    if (!found.ok) return found.page;
    const { map } = found;
    const rows = await storyMapAt(ctx).rows(map.project_id);
    const live = rows.filter((r) => r.cancelled_at === null);
    const cancelled = rows.filter((r) => r.cancelled_at !== null);
    const patch = href(ctx.url.pathname, { fragment: 'cards' });
    const body = html`<div ${liveRegion(ctx, map.project_id, patch)} id="live-region">
      ${summary(map, rows)} ${legend} ${board(ctx, map, live)}
      <section aria-labelledby="cancelled-h">
        <h2 id="cancelled-h">Cancelled (${cancelled.length})</h2>
        ${cancelledList(ctx, map.project_id, cancelled)}
      </section>
    </div>`;
    return { title: `${map.name}: story map`, body };
  },
});
