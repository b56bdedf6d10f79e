import { storyMapModel } from '../../projections/storymap/stories.js';
import type { StoryView } from '../../projections/storymap/views.js';
import { href, html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import { openBlockers, openHandoffs } from '../../events/storymap/build-record.js';
import { founderActions, formsFor } from './actions.js';
import { blockerForm, buildActions, handoffForm, planForms } from './build-actions.js';
import { mapOf, STORYMAP_MODELS, statusBadge, storyMapAt, storyPath } from './reads.js';
import { storyExtras, type PlanView, type ResultView, type TestView } from './story-extras.js';

const when = (at: string | null | undefined) =>
  at ? html`<time datetime="${at}">${at.slice(0, 19).replace('T', ' ')}</time>` : '';

const result = (r: ResultView | undefined): Html =>
  !r
    ? html`<span class="result none">no result yet</span>`
    : html`<span class="result r-${r.status}">${r.status}</span>
        ${r.attempt ? html`<small>attempt ${r.attempt}</small>` : ''}
        ${r.detail ? html`<br /><small>${r.detail}</small>` : ''}
        ${r.caveat ? html`<br /><small><strong>Caveat:</strong> ${r.caveat}</small>` : ''}`;

const criteria = (v: StoryView, results: ReadonlyMap<string, ResultView>): Html =>
  v.acceptance_criteria.length === 0
    ? html`<p>No acceptance criteria yet.</p>`
    : html`<table>
        <thead>
          <tr>
            <th scope="col">Criterion</th>
            <th scope="col">Priority</th>
            <th scope="col">Tests</th>
            <th scope="col">Latest result</th>
          </tr>
        </thead>
        <tbody>
          ${v.acceptance_criteria.map(
            (c) =>
              html`<tr>
                <th scope="row">${c.text}</th>
                <td>${c.priority}</td>
                <td>${c.test_count}</td>
                <td>${result(results.get(c.id))}</td>
              </tr>`,
          )}
        </tbody>
      </table>`;

const planVersion = (p: PlanView, i: number, last: boolean): Html =>
  html`<details ${last ? html`open` : ''}>
    <summary>
      Version ${p.version ?? i + 1}${(p.review ?? p.status) ? ` (${p.review ?? p.status})` : ''}
      ${p.saved_by ? ` by ${p.saved_by}` : ''} ${when(p.saved_at)}
    </summary>
    ${p.risk ? html`<p><strong>Risk:</strong> ${p.risk}</p>` : ''}
    <ol>
      ${p.steps.map(
        (s) =>
          html`<li>
            ${s.id ? html`<code>${s.id}</code> ` : ''}${s.text}${s.files?.length ? html` <small>(${s.files.join(', ')})</small>` : ''}
          </li>`,
      )}
    </ol>
    ${
      p.feedback?.length
        ? html`<h4>Feedback</h4>
            <ul>
              ${p.feedback.map((f) => html`<li>${f.by ? `${f.by}: ` : ''}${f.text ?? f.comment ?? ''}${f.reply ? html`<br /><small>Reply: ${f.reply}</small>` : ''}</li>`)}
            </ul>`
        : ''
    }
  </details>`;

const plans = (e: ReturnType<typeof storyExtras>): Html => {
  if (e.plans.length === 0 && !e.implementation_plan) return html`<p>No plan saved yet.</p>`;
  const feedback = e.feedback.length
    ? html`<h3>Open feedback</h3>
        <ul>
          ${e.feedback.map((f) => html`<li>${f.by ? `${f.by}: ` : ''}${f.text ?? f.comment ?? ''}</li>`)}
        </ul>`
    : '';
  return html`${e.plans.map((p, i) => planVersion(p, i, i === e.plans.length - 1))} ${feedback}
  ${
    e.implementation_plan
      ? html`<h3>Older plan</h3>
          <pre>${e.implementation_plan}</pre>`
      : ''
  }`;
};

const tests = (list: readonly TestView[]): Html =>
  list.length === 0
    ? html`<p>No tests linked yet.</p>`
    : html`<ul>
        ${list.map(
          (t) =>
            html`<li>
              ${t.title} ${t.test_type ? html`<small>(${t.test_type})</small>` : ''}
              ${t.file ? html`<br /><code>${t.file}</code>` : ''}
              ${t.criterion_ids?.length ? html` <small>proves ${t.criterion_ids.length} criteria</small>` : ''}
            </li>`,
        )}
      </ul>`;

const history = (v: StoryView): Html =>
  v.history.length === 0
    ? html`<p>Created ${when(v.created_at)} by ${v.record.created_by}; no status change yet.</p>`
    : html`<ol class="history">
        <li>created by ${v.record.created_by} ${when(v.created_at)}</li>
        ${v.history.map(
          (h) =>
            html`<li>${h.from} → <strong>${h.to}</strong> by ${h.by} (${h.via}) ${when(h.at)}</li>`,
        )}
      </ol>`;

const facts = (ctx: PageContext, v: StoryView, keys: ReadonlyMap<string, string>): Html => {
  const u = v.user_story;
  const deps = v.depends_on.map((d) => keys.get(d) ?? d);
  return html`<dl class="facts">
    <dt>Status</dt>
    <dd>
      ${statusBadge(v.status)}${v.cancelled_at ? html` <strong>cancelled</strong>${v.cancellation_reason ? `: ${v.cancellation_reason}` : ''}` : ''}
    </dd>
    <dt>Activity · release</dt>
    <dd>${v.activity} · release ${v.release}</dd>
    <dt>Priority · effort</dt>
    <dd>${v.priority} · ${v.effort}</dd>
    <dt>Build sequence</dt>
    <dd>${v.build_sequence ?? 'none'}</dd>
    <dt>Depends on</dt>
    <dd>
      ${deps.length === 0 ? 'nothing' : deps.map((k, i) => html`${i > 0 ? ', ' : ''}<a href="${href(storyPath(v.project_id, k), { at: ctx.at })}">${k}</a>`)}
    </dd>
    ${
      u.as_a || u.i_want || u.so_that
        ? html`<dt>User story</dt>
            <dd>As ${u.as_a ?? '…'}, I want ${u.i_want ?? '…'}, so that ${u.so_that ?? '…'}.</dd>`
        : ''
    }
    ${
      v.spec_changed_since_built
        ? html`<dt>Spec</dt>
            <dd>changed since it was built</dd>`
        : ''
    }
    <dt>Version</dt>
    <dd>${v.version}</dd>
  </dl>`;
};

/** What the building loop waits on the founder for, with its forms: the plan, hand-offs, blockers. */
const waiting = (ctx: PageContext, v: StoryView): Html => {
  const plan = v.build.plan;
  const review = plan && (plan.review === 'awaiting' || plan.spec_changed_since_approval);
  const handoffs = openHandoffs(v.build);
  const blockers = openBlockers(v.build);
  if (!review && handoffs.length === 0 && blockers.length === 0) return html``;
  return html`<h3>Waiting on you</h3>
    <ul class="waiting">
      ${review ? html`<li>Plan version ${plan.version}: ${planForms(ctx, v.key)}</li>` : ''}
      ${handoffs.map(
        (h) =>
          html`<li>
            Hand-off: ${h.action}${h.detail ? ` (${h.detail})` : ''} ${handoffForm(ctx, v.key, h)}
          </li>`,
      )}
      ${blockers.map(
        (b) => html`<li>Blocker: ${b.summary}: ${b.failing} ${blockerForm(ctx, v.key, b)}</li>`,
      )}
    </ul>`;
};

/** One story: criteria with results, plan versions with feedback, tests, notes and history. */
export const storyPage = definePage({
  path: '/projects/:project/stories/:story',
  models: STORYMAP_MODELS,
  actions: { ...founderActions, ...buildActions },
  async render(ctx) {
    const found = await mapOf(ctx);
    if (!found.ok) return found.page;
    const projectId = found.map.project_id;
    const ref = ctx.params.story!;
    const rows = await storyMapAt(ctx).rows(projectId);
    const row = rows.find((r) => r.key === ref.toUpperCase() || r.id === ref);
    const v = row && (await storyMapModel.story.get(ctx.models, projectId, row.id));
    if (!v)
      return {
        title: 'Story not found',
        status: 404,
        body: html`<p>
          No story <code>${ref}</code> in this
          map${ctx.at !== undefined ? ' at this position' : ''}.
        </p>`,
      };
    const e = storyExtras(v);
    const keys = new Map(rows.map((r) => [r.id, r.key]));
    const done = ctx.url.searchParams.get('done');
    const built = v.implementation_summary
      ? html`<p>${v.implementation_summary}</p>
          ${v.implemented_files.length ? html`<p><small>${v.implemented_files.join(', ')}</small></p>` : ''}`
      : '';
    const body = html`<div ${liveRegion(ctx, projectId)} id="live-region">
      ${done ? html`<p class="done" role="status">Done: ${done}.</p>` : ''} ${facts(ctx, v, keys)}
      ${formsFor(ctx, { key: v.key, status: v.status, cancelled: v.cancelled_at !== null })}
      <section aria-labelledby="crit-h">
        <h2 id="crit-h">Acceptance criteria</h2>
        ${criteria(v, e.results)}
      </section>
      <section aria-labelledby="plan-h">
        <h2 id="plan-h">Plan</h2>
        ${plans(e)} ${waiting(ctx, v)}
      </section>
      <section aria-labelledby="tests-h">
        <h2 id="tests-h">Tests</h2>
        ${tests(e.tests)}
      </section>
      <section aria-labelledby="notes-h">
        <h2 id="notes-h">Notes</h2>
        ${v.notes ? html`<pre class="notes">${v.notes}</pre>` : html`<p>No notes.</p>`} ${built}
      </section>
      <section aria-labelledby="hist-h">
        <h2 id="hist-h">History</h2>
        ${history(v)}
      </section>
    </div>`;
    return { title: `${v.key}: ${v.title}`, body };
  },
});
