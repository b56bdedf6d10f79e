import { founderTodo } from '../../app/storymap/context.js';
import { callerOf } from '../../app/storymap/access.js';
import { storymap } from '../../app/storymap/index.js';
import { href, html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import { openBlockers, openHandoffs } from '../../events/storymap/build-record.js';
import { STORYMAP_RUNS } from '../../projections/storymap/runs.js';
import { storyMapModel } from '../../projections/storymap/stories.js';
import type { StoryView } from '../../projections/storymap/views.js';
import { approveForm, founderActions, readyForm, sequenceForm } from './actions.js';
import { blockerForm, buildActions, handoffForm, planForms } from './build-actions.js';
import { mapOf, STORYMAP_MODELS, storyMapAt, storyPath } from './reads.js';
import { runActions, runsAt, runsSection } from './runs-section.js';

type Item = Awaited<ReturnType<typeof founderTodo>>['items'][number];

const KIND_LABELS: Record<string, string> = {
  vision: 'Vision',
  acceptance: 'Approve',
  ready: 'Mark ready',
  sequence: 'Sequence',
  needs_founder: 'Hand-off',
  blocker: 'Blocker',
  plan: 'Review plan',
};

/**
 * Each item's form. A story's hand-offs and blockers come as items in the order its view lists
 * the open ones (buildTodoItems), so the n-th item of a kind of a story is its n-th open one.
 */
const formsOf = (ctx: PageContext, views: ReadonlyMap<string, StoryView>) => {
  const seen = new Map<string, number>();
  const nth = (kind: string, key: string) => {
    const n = seen.get(`${kind} ${key}`) ?? 0;
    seen.set(`${kind} ${key}`, n + 1);
    return n;
  };
  return (item: Item, ids: ReadonlyMap<string, string>): Html => {
    const key = item.story_key;
    if (key === null) return html``;
    const build = views.get(key)?.build;
    if (item.kind === 'acceptance') return approveForm(ctx, key);
    if (item.kind === 'ready') return readyForm(ctx, key);
    if (item.kind === 'sequence') return sequenceForm(ctx, key, ids.get(key) ?? key);
    if (item.kind === 'plan') return planForms(ctx, key);
    const handoff =
      build && item.kind === 'needs_founder' && openHandoffs(build)[nth(item.kind, key)];
    if (handoff) return handoffForm(ctx, key, handoff);
    const blocker = build && item.kind === 'blocker' && openBlockers(build)[nth(item.kind, key)];
    if (blocker) return blockerForm(ctx, key, blocker);
    return html``;
  };
};

/**
 * The founder's to-do: what waits on a person (the same list as `intentlog founder todo`),
 * each with its action. Read from the page's models, so it travels in time like the board.
 */
const todoOf = async (ctx: PageContext, projectId: string) => {
  const at = storyMapAt(ctx);
  const map = (await at.map(projectId))!;
  const views = new Map<string, StoryView>();
  const reads = {
    ...storymap(ctx.app).reads,
    map: async () => ({ caller: await callerOf(ctx.app, projectId, ctx.principal), map }),
    rows: () => at.rows(projectId),
    order: () => at.order(projectId),
    story: async (project: string, id: string) => {
      const v = await storyMapModel.story.get(ctx.models, project, id);
      if (v) views.set(v.key, v);
      return v;
    },
  };
  return { ...(await founderTodo(reads, projectId, ctx.principal)), views };
};

export const founderTodoPage = definePage({
  path: '/projects/:project/todo',
  projectTab: 'To-do',
  models: [...STORYMAP_MODELS, STORYMAP_RUNS],
  actions: { ...founderActions, ...buildActions, ...runActions },
  async render(ctx) {
    const found = await mapOf(ctx);
    if (!found.ok) return found.page;
    const id = found.map.project_id;
    const { items, views } = await todoOf(ctx, id);
    const rows = await storyMapAt(ctx).rows(id);
    const ids = new Map(rows.map((r) => [r.key, r.id]));
    const formOf = formsOf(ctx, views);
    const done = ctx.url.searchParams.get('done');
    const body = html`<div ${liveRegion(ctx, id)} id="live-region">
      ${done ? html`<p class="done" role="status">Done: ${done}.</p>` : ''}
      ${
        items.length === 0
          ? html`<p>Nothing waits on you.</p>`
          : html`<table class="todo">
              <caption>
                What waits on the founder (${items.length}), what it unblocks first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Story</th>
                  <th scope="col">What</th>
                  <th scope="col">Unblocks</th>
                  <th scope="col">Do it</th>
                </tr>
              </thead>
              <tbody>
                ${items.map(
                  (i) =>
                    html`<tr>
                      <td>${KIND_LABELS[i.kind] ?? i.kind}</td>
                      <th scope="row">
                        ${
                          i.story_key
                            ? html`<a href="${href(storyPath(id, i.story_key), { at: ctx.at })}"
                                >${i.story_key}</a
                              >`
                            : '—'
                        }
                      </th>
                      <td>${i.detail}</td>
                      <td>${i.unblocks}</td>
                      <td class="actions">${formOf(i, ids)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      ${runsSection(ctx, await runsAt(ctx, id), new Map(rows.map((r) => [r.id, r.key])))}
    </div>`;
    return { title: `${found.map.name}: founder's to-do`, body };
  },
});
