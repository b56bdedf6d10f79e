import type { OrderRow } from '../../projections/storymap-order.js';
import type { MapView } from '../../projections/storymap-views.js';
import { href, html, type Html } from '../html.js';
import { definePage, type PageContext } from '../page.js';
import {
  mapOf,
  STATUS_LABELS,
  STORYMAP_MODELS,
  statusBadge,
  storyMapAt,
  storyPath,
} from '../storymap/reads.js';

const byKey = (a: OrderRow, b: OrderRow) => a.number - b.number;

const card = (ctx: PageContext, projectId: string, r: OrderRow): Html =>
  html`<li class="card st-${r.status}">
    <a href="${href(storyPath(projectId, r.key), { at: ctx.at })}"
      ><span class="key">${r.key}</span> ${r.title}</a
    >
    ${statusBadge(r.status)}
  </li>`;

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
              <th scope="row">Release ${order}<br /><small>${label}</small></th>
              ${activities.map((a) => {
                const here = cells.get(`${order}\u0000${a}`) ?? [];
                return html`<td>
                  ${
                    here.length === 0
                      ? ''
                      : html`<ul class="cards">
                          ${here.map((r) => card(ctx, map.project_id, r))}
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

/** The story map as a board: activities as columns, releases as rows, stories as cards. */
export const storyBoardPage = definePage({
  path: '/projects/:project/storymap',
  projectTab: 'Story map',
  models: STORYMAP_MODELS,
  async render(ctx) {
    const found = await mapOf(ctx);
    if (!found.ok) return found.page;
    const { map } = found;
    const rows = await storyMapAt(ctx).rows(map.project_id);
    const live = rows.filter((r) => r.cancelled_at === null);
    const cancelled = rows.filter((r) => r.cancelled_at !== null);
    const done = live.filter((r) => r.status === 'done' || r.status === 'approved').length;
    const body = html`<div data-live-project="${map.project_id}" id="live-region">
      <p>
        ${map.idea} <br /><strong>${live.length}</strong> live stories, ${done} built or approved,
        ${cancelled.length} cancelled${map.archived ? html`. <strong>Archived.</strong>` : ''}
      </p>
      ${legend} ${board(ctx, map, live)}
      <section aria-labelledby="cancelled-h">
        <h2 id="cancelled-h">Cancelled (${cancelled.length})</h2>
        ${cancelledList(ctx, map.project_id, cancelled)}
      </section>
    </div>`;
    return { title: `${map.name}: story map`, body };
  },
});
