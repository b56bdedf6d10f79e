import { evolveMap, initialMap, mapStream } from '../../commands/storymap/map-state.js';
import { evolveStory, initialStory, type StoryState } from '../../commands/storymap/story-state.js';
import type { StoryEvent } from '../../events/storymap/index.js';
import type { LogEvent } from '../../events/index.js';
import { foldAt } from '../fold-at.js';
import { href, html } from '../html.js';
import { definePage, type PageContext } from '../page.js';
import { numbersTable, stepChart, type Series } from '../step-chart.js';
import { mayView, projectNotFound } from '../project/pages.js';

type Point = { position: number; stories: number; built: number };

const PAGE = 1000;
const isBuilt = (s: StoryState) => s.status === 'done' || s.status === 'approved';
const inRelease = (s: StoryState, release: number) =>
  s.exists && s.cancelled === null && s.release_order === release;

/**
 * A release's live stories and how many of them are built (done or approved) after each event
 * that changed either count, up to the page's position: each story folded from the project's
 * events through the story decider's own evolve, so the chart counts what the deciders saw.
 */
const progressOf = async (ctx: PageContext, projectId: string, release: number) => {
  const upTo = ctx.at ?? Number.MAX_SAFE_INTEGER;
  const stories = new Map<string, StoryState>();
  const points: Point[] = [];
  let count = 0;
  let built = 0;
  for (let after = 0; ;) {
    const events = await ctx.app.log.readProject(projectId, { after, limit: PAGE });
    for (const e of events) {
      if (e.global_position > upTo) return points;
      if (e.aggregate_type !== 'story') continue;
      const before = stories.get(e.aggregate_id) ?? initialStory();
      // a story stream holds story events only (the decider appends nothing else there)
      const now = evolveStory(before, e as LogEvent & StoryEvent);
      stories.set(e.aggregate_id, now);
      const was = inRelease(before, release);
      const is = inRelease(now, release);
      const next = {
        stories: count - Number(was) + Number(is),
        built: built - Number(was && isBuilt(before)) + Number(is && isBuilt(now)),
      };
      if (next.stories === count && next.built === built) continue;
      ({ stories: count, built } = next);
      points.push({ position: e.global_position, ...next });
    }
    if (events.length < PAGE) return points;
    after = events.at(-1)!.cursor;
  }
};

const SERIES: readonly Series<Point>[] = [
  { name: 'stories', className: 'issued', value: (p) => p.stories },
  { name: 'built or approved', className: 'accepted', value: (p) => p.built },
];

/** A story-map release's progress over time, from the log: a step chart and its numbers. */
export const releaseProgressPage = definePage({
  path: '/projects/:project/releases/:release',
  models: [],
  async render(ctx) {
    const id = ctx.params.project!;
    if (!(await mayView(ctx, id, 'storymap'))) return projectNotFound(id);
    const release = Number(ctx.params.release);
    const { state: map } = await foldAt(
      ctx.app,
      mapStream(id),
      { evolve: evolveMap, initialState: initialMap },
      ctx.at,
    );
    // a release a story sits in has a row on the board even without a label
    const label = map.releases.get(release) ?? '(no label)';
    if (!map.exists || !Number.isSafeInteger(release) || release < 1)
      return {
        title: 'Release not found',
        status: 404,
        body: html`<p>
          No release <code>${ctx.params.release}</code> in this story
          map${ctx.at !== undefined ? ' at this position' : ''}.
        </p>`,
      };
    const points = await progressOf(ctx, id, release);
    const head = ctx.at ?? (await ctx.app.log.head());
    const last = points.at(-1) ?? { stories: 0, built: 0 };
    const text = `Release ${release} (${label}) over log positions 0 to ${head}: ${last.built} of ${last.stories} live stories built or approved.`;
    const board = href(`/projects/${encodeURIComponent(id)}/storymap`, { at: ctx.at });
    return {
      title: `${map.name}: release ${release}, ${label}`,
      body: html`<p><a href="${board}">Back to the board</a></p>
        ${stepChart(points, head, SERIES, text)} ${numbersTable(points, SERIES)}`,
    };
  },
});
