import {
  listWorkPackages,
  workPackageItems,
} from '../../projections/governance/work-package-reads.js';
import { WorkPackageStatus } from '../../events/governance/index.js';
import {
  pendingActionQueries,
  type PendingAction,
} from '../../projections/governance/pending-actions.js';

import type { ProjectView } from '../../projections/project/projects.js';
import type {
  WorkPackageHead,
  WorkPackageView,
} from '../../projections/governance/work-packages.js';
import { actionForm, textField } from '../forms.js';
import { html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import { governanceActions, issueForm, packageForms } from './forms.js';
import { progressPage } from './progress.js';
import { projectNotFound, projectOf } from '../project/pages.js';

const GOVERNANCE_MODELS = ['projects', 'work-packages', 'pending-actions'];

/** A package as a row shows it: its head and its reviews. */
type PackageRow = WorkPackageHead & Pick<WorkPackageView, 'reviews'>;

const reviewsText = (wp: PackageRow) =>
  wp.reviews.map((r) => `${r.reviewer_id}: ${r.verdict ?? 'pending'}`).join(', ');

const packageRow = (ctx: PageContext, wp: PackageRow, members: readonly string[]) =>
  html`<tr>
    <th scope="row">${wp.work_package_id}</th>
    <td>
      ${wp.title}${wp.result ? html`<br /><small>result ${wp.result.result_number}: ${wp.result.summary}</small>` : ''}
    </td>
    <td>${wp.claimed_by ?? ''}</td>
    <td>${reviewsText(wp)}</td>
    <td>${wp.gate ? `${wp.gate.outcome} by ${wp.gate.closed_by}` : ''}</td>
    <td class="actions">${packageForms(ctx, wp, members)}</td>
  </tr>`;

/** A state (and a member's pending actions) shows its first 50; `?all=1` shows every one. */
export const ROWS_PER_STATE = 50;

const more = (ctx: PageContext, shown: number, total: number) => {
  if (shown === total) return html``;
  const all = new URL(ctx.url);
  all.searchParams.set('all', '1');
  return html`<p>
    ${shown} of ${total} shown. <a href="${all.pathname + all.search}">Show all ${total}</a>
  </p>`;
};

/** A state's packages, most recently changed first: the first ROWS_PER_STATE, or all. */
const inState = async (ctx: PageContext, projectId: string, status: WorkPackageStatus) => {
  const limit = ctx.url.searchParams.has('all') ? {} : { limit: ROWS_PER_STATE };
  const page = await listWorkPackages(ctx.models, projectId, { status, ...limit });
  const rows = await Promise.all(
    page.items.map(async (head): Promise<PackageRow> => {
      const reviews = await workPackageItems(ctx.models, head, 'reviews');
      return { ...head, reviews: reviews.items };
    }),
  );
  return { status, total: page.total, rows };
};

/** Work packages grouped by state, one table per state (empty states say so). */
const byState = async (ctx: PageContext, projectId: string, members: readonly string[]) =>
  (
    await Promise.all(WorkPackageStatus.options.map((status) => inState(ctx, projectId, status)))
  ).map(({ status, total, rows }) => {
    const id = `state-${status.toLowerCase()}`;
    return html`<section aria-labelledby="${id}">
      <h3 id="${id}">${status} (${total})</h3>
      ${more(ctx, rows.length, total)}
      ${
        rows.length === 0
          ? html`<p>None.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Title</th>
                  <th scope="col">Claimed by</th>
                  <th scope="col">Reviews</th>
                  <th scope="col">Gate</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map((wp) => packageRow(ctx, wp, members))}
              </tbody>
            </table>`
      }
    </section>`;
  });

type RoleActions = { role: string; actor: string; actions: PendingAction[] };

const pendingByRole = async (ctx: PageContext, project: ProjectView): Promise<RoleActions[]> => {
  const queries = pendingActionQueries(ctx.models);
  const members = project.roster.flatMap((m) =>
    m.roles.governance ? [{ actor: m.actor_id, role: m.roles.governance }] : [],
  );
  const rows = await Promise.all(
    members.map(async (m) => ({
      ...m,
      actions: await queries.pendingActions(project.project_id, m.actor, m.role as never),
    })),
  );
  return rows.sort((a, b) => a.role.localeCompare(b.role) || a.actor.localeCompare(b.actor));
};

const escalationForm = (ctx: PageContext, escalationId: string) =>
  actionForm(
    ctx,
    'resolve_escalation',
    'Resolve',
    textField('resolution', 'Resolution', { required: true }),
    {
      escalation_id: escalationId,
    },
  );

const pendingTable = (ctx: PageContext, rows: readonly RoleActions[]): Html => {
  const all = ctx.url.searchParams.has('all');
  const lines = rows.flatMap((r) =>
    (all ? r.actions : r.actions.slice(0, ROWS_PER_STATE)).map((a) => ({ ...r, a })),
  );
  const total = rows.reduce((n, r) => n + r.actions.length, 0);
  if (lines.length === 0) return html`<p>Nobody has anything pending.</p>`;
  return html`${more(ctx, lines.length, total)}
    <table>
      <thead>
        <tr>
          <th scope="col">Role</th>
          <th scope="col">Actor</th>
          <th scope="col">Action</th>
          <th scope="col">About</th>
          <th scope="col">Since</th>
          <th scope="col">Do it</th>
        </tr>
      </thead>
      <tbody>
        ${lines.map(
          ({ role, actor, a }) =>
            html`<tr>
              <td>${role}</td>
              <th scope="row">${actor}</th>
              <td><code>${a.action}</code>${a.ready_to_accept ? ' (ready to accept)' : ''}</td>
              <td>
                ${a.title} ${a.work_package_id ? html`<small>(${a.work_package_id})</small>` : ''}
              </td>
              <td><time datetime="${a.since}">${a.since}</time></td>
              <td>
                ${
                  a.action === 'resolve_escalation' && a.escalation_id
                    ? escalationForm(ctx, a.escalation_id)
                    : ''
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>`;
};

/** Governance: work packages by state, pending actions by role, and the PO/PM forms. */
export const governancePage = definePage({
  path: '/projects/:project/governance',
  projectTab: 'Governance',
  models: GOVERNANCE_MODELS,
  actions: governanceActions,
  async render(ctx) {
    const id = ctx.params.project!;
    const project = await projectOf(ctx, id, 'governance');
    if (!project) return projectNotFound(id);
    const members = project.roster.filter((m) => m.roles.governance).map((m) => m.actor_id);
    const done = ctx.url.searchParams.get('done');
    const body = html`<div ${liveRegion(ctx, id)} id="live-region">
      ${done ? html`<p class="done" role="status">Done: <code>${done}</code>.</p>` : ''}
      <section aria-labelledby="wp-h">
        <h2 id="wp-h">Work packages by state</h2>
        ${issueForm(ctx)} ${await byState(ctx, id, members)}
      </section>
      <section aria-labelledby="pending-h">
        <h2 id="pending-h">Pending actions by role</h2>
        ${pendingTable(ctx, await pendingByRole(ctx, project))}
      </section>
    </div>`;
    return { title: `${project.name}: governance`, body };
  },
});

export const governancePages = [governancePage, progressPage];
