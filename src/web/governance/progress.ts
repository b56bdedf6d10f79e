import { html, type Html } from '../html.js';
import { numbersTable, stepChart, type Series } from '../step-chart.js';
import { mayView, projectNotFound } from '../project/pages.js';
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

const SERIES: readonly Series<Point>[] = [
  { name: 'issued', className: 'issued', value: (p) => p.issued },
  { name: 'accepted', className: 'accepted', value: (p) => p.accepted },
];

const chart = (points: readonly Point[], head: number): Html => {
  const last = points.at(-1) ?? { issued: 0, accepted: 0 };
  const label = `Work packages over log positions 0 to ${head}: ${last.issued} issued, ${last.accepted} accepted.`;
  return stepChart(points, head, SERIES, label);
};

/** Progress over time: work packages issued and accepted along the log's positions. */
export const progressPage = definePage({
  path: '/projects/:project/progress',
  projectTab: 'Progress',
  models: [],
  async render(ctx) {
    const id = ctx.params.project!;
    if (!(await mayView(ctx, id, 'governance'))) return projectNotFound(id);
    const points = await progressOf(ctx, id);
    const head = ctx.at ?? (await ctx.app.log.head());
    return {
      title: `${id}: progress`,
      body: html`${chart(points, head)}${numbersTable(points, SERIES)}`,
    };
  },
});
