import { mayReach } from '../../commands/intent/task-access.js';
import { intentSnapshotQueries } from '../../projections/intent/snapshot.js';
import {
  buildSnapshot,
  type ClaimLine,
  type DisputeLine,
} from '../../projections/intent/snapshot-view.js';
import { INTENT_SNAPSHOT } from '../../projections/intent/snapshot.js';
import { href, html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import { mayView, projectNotFound } from '../project/pages.js';

const MODELS = [INTENT_SNAPSHOT];

/** "Now" for staleness: the clock live, the committed time of the position in the past. */
const nowOf = async (ctx: PageContext): Promise<string> => {
  if (ctx.at === undefined) return ctx.app.clock().toISOString();
  const [event] = await ctx.app.log.readAll({ after: Math.max(0, ctx.at - 1), limit: 1 });
  return event?.created_at ?? ctx.app.clock().toISOString();
};

const claim = (c: ClaimLine): Html =>
  html`<li>
    ${c.statement}
    <small
      >(${c.epistemic_status}, ${c.role}, ${c.scope}, from
      ${c.source_kind}${c.confidence !== null ? `, confidence ${c.confidence}` : ''})</small
    >
  </li>`;

const dispute = (d: DisputeLine): Html =>
  html`<li>
    ${d.statement}
    <ul>
      ${d.disputed_claims.map(
        (x) =>
          html`<li>
            disputes: ${x.statement ?? html`<em>(deleted)</em>`} <small>(${x.life})</small>
          </li>`,
      )}
    </ul>
  </li>`;

const list = (items: readonly Html[], none: string, omitted: number) =>
  items.length === 0
    ? html`<p>${none}</p>`
    : html`<ul>
          ${items}
        </ul>
        ${omitted > 0 ? html`<p><small>${omitted} more left out by the snapshot's cap.</small></p>` : ''}`;

/** An intent task: its snapshot (what an agent is given), disputes and unknowns first. */
export const intentTaskPage = definePage({
  path: '/projects/:project/intent/:task',
  models: MODELS,
  async render(ctx) {
    const { project: p, task: t } = ctx.params as { project: string; task: string };
    if (!(await mayView(ctx, p))) return projectNotFound(p);
    const queries = intentSnapshotQueries(ctx.models);
    const head = await queries.head(p, t);
    const missing = (why: string) => ({
      title: `Intent task ${t}`,
      status: 404,
      body: html`<p>${why}</p>`,
    });
    // another's task is shown as no task, as the intent tools answer it
    if (!head || !mayReach(head.owner, ctx.principal))
      return missing('No such task in this project.');
    if (head.deleted) return missing('This task was deleted (verified delete).');
    if (head.mode === 'private')
      return {
        title: `Intent task ${t}`,
        body: html`<p>
          This task is <strong>private</strong>: its claims live only in the agent's process and
          never reach the log, so this page cannot show them.
        </p>`,
      };
    const s = buildSnapshot(head, await queries.claims(p, t), await nowOf(ctx));
    const body = html`<div ${liveRegion(ctx, p)} id="live-region">
      <p>
        Mode <strong>${s.mode}</strong>, started ${head.started_at}. ${s.active_claims} active
        claims, ${s.unresolved_disputes} unresolved disputes, ${s.open_unknowns} open unknowns,
        ${s.candidate_count} candidates.
        ${s.incomplete_external_history ? html`<strong>Imported: external history incomplete.</strong>` : ''}
      </p>
      <section aria-labelledby="disputes-h">
        <h2 id="disputes-h">Disputes (${s.unresolved_disputes})</h2>
        ${list(s.disputes.map(dispute), 'No dispute.', s.omitted.disputes)}
      </section>
      <section aria-labelledby="unknowns-h">
        <h2 id="unknowns-h">Unknowns (${s.open_unknowns})</h2>
        ${list(s.unknowns.map(claim), 'No open unknown.', s.omitted.unknowns)}
      </section>
      <section aria-labelledby="current-h">
        <h2 id="current-h">Current claims</h2>
        ${list(s.current.map(claim), 'No current claim.', s.omitted.current)}
      </section>
      ${
        s.stale_warnings.length
          ? html`<section aria-labelledby="stale-h">
              <h2 id="stale-h">Stale warnings</h2>
              <ul>
                ${s.stale_warnings.map((w) => html`<li><code>${w.claim_id}</code>: ${w.reason}</li>`)}
              </ul>
            </section>`
          : ''
      }
    </div>`;
    return { title: `Intent task ${t}`, body };
  },
});

/** A project's intent tasks. */
export const intentTasksPage = definePage({
  path: '/projects/:project/intent',
  projectTab: 'Intent',
  models: MODELS,
  async render(ctx) {
    const p = ctx.params.project!;
    if (!(await mayView(ctx, p))) return projectNotFound(p);
    const tasks = (await intentSnapshotQueries(ctx.models).tasks(p)).filter(
      (t) => !t.deleted && mayReach(t.owner, ctx.principal),
    );
    const body =
      tasks.length === 0
        ? html`<p>No intent task in this project.</p>`
        : html`<ul>
            ${tasks.map(
              (t) =>
                html`<li>
                  <a
                    href="${href(`/projects/${encodeURIComponent(p)}/intent/${encodeURIComponent(t.task_id)}`, { at: ctx.at })}"
                    >${t.task_id}</a
                  >
                  <small>(${t.mode}, started ${t.started_at})</small>
                </li>`,
            )}
          </ul>`;
    return { title: `${p}: intent tasks`, body };
  },
});

/** The intent pages, in the order of their tabs: the tasks, one task. */
export const intentPages = [intentTasksPage, intentTaskPage];
