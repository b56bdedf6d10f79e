import { founderTodo } from '../../app/storymap-context.js';
import { callerOf } from '../../app/storymap-access.js';
import { storymap } from '../../app/storymap.js';
import { href, html, type Html } from '../html.js';
import { definePage, type PageContext } from '../page.js';
import { approveForm, founderActions, readyForm, sequenceForm } from '../storymap/actions.js';
import { mapOf, STORYMAP_MODELS, storyMapAt, storyPath } from '../storymap/reads.js';

type Item = Awaited<ReturnType<typeof founderTodo>>['items'][number];

const KIND_LABELS: Record<string, string> = {
  vision: 'Vision',
  acceptance: 'Approve',
  ready: 'Mark ready',
  sequence: 'Sequence',
};

const formOf = (ctx: PageContext, item: Item, ids: ReadonlyMap<string, string>): Html => {
  const key = item.story_key;
  if (key === null) return html``;
  if (item.kind === 'acceptance') return approveForm(ctx, key);
  if (item.kind === 'ready') return readyForm(ctx, key);
  if (item.kind === 'sequence') return sequenceForm(ctx, key, ids.get(key) ?? key);
  return html``;
};

/**
 * The founder's to-do: what waits on a person (the same list as `intentlog founder todo`),
 * each with its action. Read from the page's models, so it travels in time like the board.
 */
const todoOf = async (ctx: PageContext, projectId: string) => {
  const at = storyMapAt(ctx);
  const map = (await at.map(projectId))!;
  const reads = {
    ...storymap(ctx.app).reads,
    map: async () => ({ caller: await callerOf(ctx.app, projectId, ctx.principal), map }),
    rows: () => at.rows(projectId),
    order: () => at.order(projectId),
  };
  return founderTodo(reads, projectId, ctx.principal);
};

export const founderTodoPage = definePage({
  path: '/projects/:project/todo',
  projectTab: 'To-do',
  models: STORYMAP_MODELS,
  actions: founderActions,
  async render(ctx) {
    const found = await mapOf(ctx);
    if (!found.ok) return found.page;
    const id = found.map.project_id;
    const { items } = await todoOf(ctx, id);
    const ids = new Map((await storyMapAt(ctx).rows(id)).map((r) => [r.key, r.id]));
    const done = ctx.url.searchParams.get('done');
    const body = html`<div data-live-project="${id}" id="live-region">
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
                      <td class="actions">${formOf(ctx, i, ids)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </div>`;
    return { title: `${found.map.name}: founder's to-do`, body };
  },
});
