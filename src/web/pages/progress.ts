import { visibleProjects } from '../event-rows.js';
import { html, type Html } from '../html.js';
import { projectNotFound } from './projects.js';
import { definePage, type PageContext } from '../page.js';

type Point = { position: number; issued: number; accepted: number };

const PAGE = 1000;

/** Work packages issued and accepted after each event that changed either count. */
const progressOf = async (ctx: PageContext, projectId: string): Promise<Point[]> => {
  const upTo = ctx.at ?? Number.MAX_SAFE_INTEGER;
  const points: Point[] = [];
  let issued = 0;
  let accepted = 0;
  for (let after = 0; ;) {
    const events = await ctx.app.log.readProject(projectId, { after, limit: PAGE });
    for (const e of events) {
      if (e.global_position > upTo) return points;
      if (e.type === 'work_package.issued') issued++;
      else if (e.type === 'gate.closed' && e.data.outcome === 'ACCEPT') accepted++;
      else continue;
      points.push({ position: e.global_position, issued, accepted });
    }
    if (events.length < PAGE) return points;
    after = events.at(-1)!.cursor;
  }
};

const W = 640;
const H = 240;
const PAD = 32;

const line = (points: readonly Point[], y: (p: Point) => number, max: { x: number; y: number }) => {
  const sx = (x: number) => PAD + (x / max.x) * (W - 2 * PAD);
  const sy = (v: number) => H - PAD - (v / max.y) * (H - 2 * PAD);
  let d = `M ${sx(0)} ${sy(0)}`;
  let last = 0;
  for (const p of points) {
    d += ` L ${sx(p.position)} ${sy(last)} L ${sx(p.position)} ${sy(y(p))}`;
    last = y(p);
  }
  return `${d} L ${sx(max.x)} ${sy(last)}`;
};

/** A step chart drawn on the server (no library, no script); the numbers are in the table too. */
const chart = (points: readonly Point[], head: number): Html => {
  const max = { x: Math.max(1, head), y: Math.max(1, ...points.map((p) => p.issued)) };
  const last = points.at(-1) ?? { issued: 0, accepted: 0 };
  const label = `Work packages over log positions 0 to ${head}: ${last.issued} issued, ${last.accepted} accepted.`;
  return html`<figure>
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" class="chart">
      <line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" class="axis" />
      <line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" class="axis" />
      <text x="${PAD}" y="${H - 8}">0</text>
      <text x="${W - PAD}" y="${H - 8}" text-anchor="end">${head}</text>
      <text x="4" y="${PAD}">${max.y}</text>
      <path d="${line(points, (p) => p.issued, max)}" class="issued" />
      <path d="${line(points, (p) => p.accepted, max)}" class="accepted" />
    </svg>
    <figcaption>
      ${label} <span class="key issued">issued</span> <span class="key accepted">accepted</span>
    </figcaption>
  </figure>`;
};

const table = (points: readonly Point[]) =>
  html`<details>
    <summary>The numbers</summary>
    <table>
      <thead>
        <tr>
          <th scope="col">Position</th>
          <th scope="col">Issued</th>
          <th scope="col">Accepted</th>
        </tr>
      </thead>
      <tbody>
        ${points.map(
          (p) =>
            html`<tr>
              <td>${p.position}</td>
              <td>${p.issued}</td>
              <td>${p.accepted}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </details>`;

/** Progress over time: work packages issued and accepted along the log's positions. */
export const progressPage = definePage({
  path: '/projects/:project/progress',
  projectTab: 'Progress',
  models: [],
  async render(ctx) {
    const id = ctx.params.project!;
    const visible = await visibleProjects(ctx.app, ctx.principal);
    if (visible && !visible.has(id)) return projectNotFound(id);
    const points = await progressOf(ctx, id);
    const head = ctx.at ?? (await ctx.app.log.head());
    return { title: `${id}: progress`, body: html`${chart(points, head)}${table(points)}` };
  },
});
