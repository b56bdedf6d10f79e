import type { OrderedStory, UnsequencedStory } from '../../projections/storymap/order.js';
import { href, html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import { dependencyGraph } from './graph.js';
import { mapOf, STORYMAP_MODELS, statusBadge, storyMapAt, storyPath } from './reads.js';

/** The graph draws at most this many stories of the order (the list shows every one). */
export const GRAPH_MAX = 150;

const keyLink = (ctx: PageContext, projectId: string, key: string) =>
  html`<a href="${href(storyPath(projectId, key), { at: ctx.at })}">${key}</a>`;

const orderList = (ctx: PageContext, projectId: string, order: readonly OrderedStory[]): Html =>
  order.length === 0
    ? html`<p>No story is sequenced or built yet.</p>`
    : html`<ol class="build-order">
        ${order.map(
          (o) =>
            html`<li>
              ${keyLink(ctx, projectId, o.key)} ${o.title} ${statusBadge(o.status)}
              <br /><small>${o.reason}</small>
            </li>`,
        )}
      </ol>`;

const unsequencedList = (
  ctx: PageContext,
  projectId: string,
  rows: readonly UnsequencedStory[],
): Html =>
  rows.length === 0
    ? html`<p>Every live story is sequenced.</p>`
    : html`<ul>
        ${rows.map(
          (u) =>
            html`<li>
              ${keyLink(ctx, projectId, u.key)} ${u.title} ${statusBadge(u.status)}
              <small>(release ${u.release}; ${u.reason})</small>
            </li>`,
        )}
      </ul>`;

/** The build order: a drawn dependency graph beside the ordered list, and what is unsequenced. */
export const buildOrderPage = definePage({
  path: '/projects/:project/build-order',
  projectTab: 'Build order',
  models: STORYMAP_MODELS,
  async render(ctx) {
    const found = await mapOf(ctx);
    if (!found.ok) return found.page;
    const { map } = found;
    const { order, unsequenced } = await storyMapAt(ctx).order(map.project_id);
    const drawn = order.slice(0, GRAPH_MAX);
    const ids = new Set(drawn.map((o) => o.id));
    const edges = drawn.reduce((n, o) => n + o.depends_on.filter((d) => ids.has(d)).length, 0);
    const label = `Dependency graph of the first ${drawn.length} stories of the build order (${edges} dependencies); each arrow points from a story to one that depends on it. The list gives the same order.`;
    const body = html`<div ${liveRegion(ctx, map.project_id)} id="live-region">
      <div class="build-order-split">
        <section aria-labelledby="graph-h" class="graph-box">
          <h2 id="graph-h">Dependency graph</h2>
          ${
            order.length > drawn.length
              ? html`<p>The first ${drawn.length} of ${order.length} stories are drawn.</p>`
              : ''
          }
          <div class="graph-scroll" tabindex="0" role="region" aria-label="Dependency graph">
            ${dependencyGraph(drawn, label)}
          </div>
        </section>
        <section aria-labelledby="order-h">
          <h2 id="order-h">Build order (${order.length})</h2>
          ${orderList(ctx, map.project_id, order)}
        </section>
      </div>
      <section aria-labelledby="unseq-h">
        <h2 id="unseq-h">Unsequenced (${unsequenced.length})</h2>
        ${unsequencedList(ctx, map.project_id, unsequenced)}
      </section>
    </div>`;
    return { title: `${map.name}: build order`, body };
  },
});
