import { runs } from '../../app/storymap/runs.js';
import { invalidArgument } from '../../commands/errors.js';
import { type RunView, runsModel } from '../../projections/storymap/runs.js';
import { actionForm, fieldId, selectField, textField } from '../forms.js';
import { html, type Html } from '../html.js';
import type { PageContext } from '../page.js';
import { founderAction } from './actions.js';

/**
 * Build runs on the founder's to-do: create a draft run, approve it, pause, resume, stop or
 * cancel it. The same service (and decider) as `intentlog founder run …`; agents only read runs.
 */
const MOVES = {
  run_approve: ['ApproveRun', 'Approve', 'approved'],
  run_pause: ['PauseRun', 'Pause', 'paused'],
  run_resume: ['ResumeRun', 'Resume', 'resumed'],
  run_stop: ['StopRun', 'Stop', 'stopped'],
  run_cancel: ['CancelRun', 'Cancel', 'cancelled'],
} as const;
type Move = keyof typeof MOVES;

/** What each status lets the founder do (the decider still decides). */
const MOVES_FROM: Record<RunView['status'], readonly Move[]> = {
  draft: ['run_approve', 'run_cancel'],
  approved: ['run_pause', 'run_stop', 'run_cancel'],
  paused: ['run_resume', 'run_stop', 'run_cancel'],
  stopped: [],
  cancelled: [],
};
const WITH_REASON = new Set<Move>(['run_pause', 'run_stop', 'run_cancel']);

const move = (op: Move) =>
  founderAction(MOVES[op][2], (ctx, form) => {
    const reason = (form.get('reason') ?? '').trim();
    return runs(ctx.app).move(
      {
        project_id: ctx.params.project!,
        run: form.get('run') ?? '',
        ...(reason ? { reason } : {}),
      },
      MOVES[op][0],
      ctx.principal,
    );
  });

/** Story keys as a person types them: separated by commas, spaces or new lines. */
const storiesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export const runActions = {
  run_create: founderAction('run created', (ctx, form) => {
    const concurrency = Number((form.get('concurrency') ?? '1').trim() || '1');
    if (!Number.isInteger(concurrency))
      throw invalidArgument('concurrency is a whole number', {
        concurrency: form.get('concurrency'),
      });
    const onFailure = form.get('on_failure') === 'continue' ? 'continue' : 'stop';
    return runs(ctx.app).create(
      {
        project_id: ctx.params.project!,
        title: (form.get('title') ?? '').trim(),
        stories: storiesOf(form.get('stories') ?? ''),
        concurrency,
        on_failure: onFailure,
      },
      ctx.principal,
    );
  }),
  ...(Object.fromEntries((Object.keys(MOVES) as Move[]).map((op) => [op, move(op)])) as Record<
    Move,
    ReturnType<typeof move>
  >),
};

/** A project's runs as the page's read models hold them (live, or as of the past). */
export const runsAt = async (ctx: PageContext, projectId: string): Promise<RunView[]> =>
  (await runsModel.runs.values(ctx.models, projectId)).sort((a, b) => a.number - b.number);

const moveForm = (ctx: PageContext, r: RunView, op: Move): Html => {
  const label = `${MOVES[op][1]} ${r.key}`;
  if (!WITH_REASON.has(op)) return actionForm(ctx, op, label, html``, { run: r.key });
  const id = fieldId('reason');
  return actionForm(
    ctx,
    op,
    label,
    html`<label for="${id}">Why (${r.key}, optional)</label><input id="${id}" name="reason" />`,
    { run: r.key },
  );
};

const createForm = (ctx: PageContext): Html => {
  const id = fieldId('concurrency');
  return actionForm(
    ctx,
    'run_create',
    'Create a draft run',
    html`${textField('title', 'Title', { required: true })}
      ${textField('stories', 'Stories (keys, in build order)', { required: true })}
      <label for="${id}">Concurrency</label
      ><input id="${id}" name="concurrency" type="number" min="1" value="1" />
      ${selectField('on_failure', 'On a story needing rework', ['stop', 'continue'])}`,
  );
};

export const runsSection = (
  ctx: PageContext,
  list: readonly RunView[],
  keys: ReadonlyMap<string, string>,
): Html =>
  html`<section aria-labelledby="runs-h">
    <h2 id="runs-h">Build runs (${list.length})</h2>
    ${
      list.length === 0
        ? html`<p>No runs yet.</p>`
        : html`<table class="runs">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Stories</th>
                <th scope="col">Do it</th>
              </tr>
            </thead>
            <tbody>
              ${list.map(
                (r) =>
                  html`<tr>
                    <th scope="row">${r.key} ${r.title}</th>
                    <td>${r.status}${r.reason ? html`<br /><small>${r.reason}</small>` : ''}</td>
                    <td>
                      ${r.story_ids.map((id) => keys.get(id) ?? id).join(', ')}
                      <small>(concurrency ${r.concurrency}, on failure ${r.on_failure})</small>
                    </td>
                    <td class="actions">
                      ${MOVES_FROM[r.status].map((op) => moveForm(ctx, r, op))}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    ${createForm(ctx)}
  </section>`;
