import { projectsModel } from '../../projections/project/projects.js';
import { principalId } from '../../commands/principal.js';

import {
  latestRows,
  readsRow,
  visibleProjects,
  filterOf,
  type EventFilter,
  type EventRow,
} from '../event-rows.js';
import { href, html, shortHash, type Html } from '../html.js';
import { definePage, type PageContext } from '../page.js';
import { timeOfPosition } from '../time-travel.js';

/** How many events the timeline shows at once (the newest matching ones). */
export const TIMELINE_ROWS = 200;

const select = (name: string, label: string, options: readonly string[], value?: string) =>
  html`<label for="f-${name}">${label}</label>
    <select id="f-${name}" name="${name}">
      <option value="">any</option>
      ${options.map((o) => html`<option value="${o}" ${o === value ? html`selected` : ''}>${o}</option>`)}
    </select>`;

const hidden = (filter: EventFilter) =>
  Object.entries(filter).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`);

/** The filter form; a GET, so a filtered timeline is a link. */
const filters = (ctx: PageContext, projects: readonly string[], filter: EventFilter) =>
  html` <form
    class="filters"
    method="get"
    action="/timeline"
    role="search"
    aria-label="Filter events"
  >
    ${select('project', 'Project', projects, filter.project)}
    ${select('surface', 'Surface', ctx.contexts, filter.surface)}
    <label for="f-stream">Stream contains</label>
    <input id="f-stream" name="stream" value="${filter.stream ?? ''}" />
    ${select('type', 'Event type', ctx.app.catalog.types().sort(), filter.type)}
    ${ctx.at !== undefined ? html`<input type="hidden" name="at" value="${ctx.at}" />` : ''}
    <button type="submit">Filter</button>
  </form>`;

/** The time slider: a range over the log's positions, submitted as `?at=` (the page's past). */
const slider = (ctx: PageContext, head: number, filter: EventFilter) =>
  html` <form class="time-travel" method="get" action="/timeline" aria-label="Time travel">
    ${hidden(filter)}
    <label for="at">As of position</label>
    <input
      type="range"
      id="at"
      name="at"
      min="0"
      max="${head}"
      value="${ctx.at ?? head}"
      data-autosubmit
    />
    <output for="at" id="at-value">${ctx.at ?? head}</output> of ${head}
    <button type="submit">Show</button>
    ${ctx.at !== undefined ? html`<a href="${href('/timeline', filter)}">Live</a>` : ''}
  </form>`;

/** Travel by time: the last position committed by then (a datetime-local value is UTC). */
const timeForm = (filter: EventFilter, shown: string | undefined) =>
  html` <form class="time-travel" method="get" action="/timeline" aria-label="Time travel by time">
    ${hidden(filter)}
    <label for="at-time">As of time (UTC)</label>
    <input
      type="datetime-local"
      id="at-time"
      name="at"
      step="1"
      value="${shown ? shown.slice(0, 19) : ''}"
    />
    <button type="submit">Show as of time</button>
  </form>`;

export const eventRow = (r: EventRow): Html =>
  html`<tr>
    <td>${r.position}</td>
    <td><time datetime="${r.created_at}">${r.created_at.slice(0, 19).replace('T', ' ')}</time></td>
    <td>${r.project_id}</td>
    <td>${r.context}</td>
    <td class="stream">${r.stream}</td>
    <td><code>${r.type}</code></td>
    <td>${r.actor_id} <span class="role">${r.actor_role}</span></td>
    <td class="chain">${shortHash(r.prev_hash)} → ${shortHash(r.hash)}</td>
  </tr>`;

const table = (rows: readonly EventRow[], liveSrc: string | undefined) =>
  html` <table class="timeline">
    <caption>
      Events, newest first${liveSrc ? html` <span class="live-dot">live</span>` : ''}
    </caption>
    <thead>
      <tr>
        <th scope="col">Position</th>
        <th scope="col">Time (UTC)</th>
        <th scope="col">Project</th>
        <th scope="col">Surface</th>
        <th scope="col">Stream</th>
        <th scope="col">Type</th>
        <th scope="col">Actor</th>
        <th scope="col">Chain (prev → hash)</th>
      </tr>
    </thead>
    <tbody id="timeline-rows" ${liveSrc ? html`data-live-src="${liveSrc}"` : ''}>
      ${rows.map(eventRow)}
    </tbody>
  </table>`;

/** Every event as it is appended, filtered, each with its actor, time and hash-chain link. */
export const timelinePage = definePage({
  path: '/timeline',
  nav: 'Timeline',
  models: [],
  async render(ctx) {
    const { app } = ctx;
    const filter = filterOf(ctx.url.searchParams);
    const visible = await visibleProjects(app, ctx.principal);
    const head = await app.log.head();
    const all = (await projectsModel.projects.values(app.log.models)).map((p) => p.project_id);
    const projects = all.filter((p) => !visible || visible.has(p));
    const rows = await latestRows(app, {
      upTo: ctx.at ?? head,
      limit: TIMELINE_ROWS,
      filter,
      visible,
      reads: readsRow(app, ctx.principal),
      contextOf: ctx.contextOf,
    });
    const liveSrc = ctx.at === undefined ? href('/events', filter) : undefined;
    const scope = visible
      ? `the projects ${principalId(ctx.principal)} belongs to`
      : 'every project';
    const body = html`<p>Every event of ${scope}, newest first (at most ${TIMELINE_ROWS}).</p>
      ${filters(ctx, projects, filter)} ${slider(ctx, head, filter)}
      ${timeForm(filter, await timeOfPosition(app, ctx.at ?? head))} ${table(rows, liveSrc)}`;
    return { title: 'Event timeline', body };
  },
});
