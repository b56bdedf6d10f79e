import { missions } from '../../app/missions/service.js';
import { pendingCodes, type PendingCode } from '../../app/missions/owner-channel.js';
import { deskDecider, deskStream } from '../../commands/missions/desk.js';
import type { Desk, Lease, Mission } from '../../commands/missions/desk-state.js';
import { foldAt } from '../fold-at.js';
import { href, html, type Html } from '../html.js';
import { definePage, liveRegion, type PageContext } from '../page.js';
import { mayView, projectNotFound, projectsOf } from '../project/pages.js';

const when = (at: string) =>
  html`<time datetime="${at}">${at.slice(0, 19).replace('T', ' ')}</time>`;

/** "Now" of the page: the clock live, the committed time of the position in the past. */
const nowOf = async (ctx: PageContext): Promise<string> => {
  if (ctx.at === undefined) return ctx.app.clock().toISOString();
  const [event] = await ctx.app.log.readAll({ after: Math.max(0, ctx.at - 1), limit: 1 });
  return event?.created_at ?? ctx.app.clock().toISOString();
};

const leaseRows = (leases: readonly Lease[], now: string): Html =>
  leases.length === 0
    ? html`<p>No session holds a lease.</p>`
    : html`<table>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Agent · role</th>
            <th scope="col">Contribution</th>
            <th scope="col">Contract</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          ${leases.map(
            (l) =>
              html`<tr>
                <th scope="row"><code>${l.session_id}</code></th>
                <td>${l.agent_identity} · ${l.role}</td>
                <td>${l.contribution}<br /><small>expects: ${l.expected_result}</small></td>
                <td>v${l.contract_version}</td>
                <td>
                  ${
                    l.revoked
                      ? `revoked (${l.revoked})`
                      : l.expires_at > now
                        ? html`live until ${when(l.expires_at)}`
                        : html`expired ${when(l.expires_at)}`
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`;

const missionBlock = (m: Mission, desk: Desk, now: string): Html =>
  html`<section aria-labelledby="m-${m.mission_id}">
    <h2 id="m-${m.mission_id}">${m.contract.objective}</h2>
    <p>
      <strong>${m.status}</strong>, contract v${m.contract_version}, opened ${when(m.opened_at)}
      ${m.closed_at ? html`, closed ${when(m.closed_at)}` : ''}. Owner: ${m.contract.owner}.
    </p>
    <h3>Done when</h3>
    <ul>
      ${m.contract.done_criteria.map((c) => html`<li><code>${c.id}</code> ${c.description}</li>`)}
    </ul>
    ${m.contract.non_goals.length ? html`<p><small>Non-goals: ${m.contract.non_goals.join('; ')}</small></p>` : ''}
    <h3>Leases</h3>
    ${leaseRows(
      [...desk.leases.values()].filter((l) => l.mission_id === m.mission_id),
      now,
    )}
  </section>`;

const lanes = (desk: Desk): Html => {
  const all = [...desk.lanes.values()];
  return all.length === 0
    ? html`<p>No lanes.</p>`
    : html`<ul>
        ${all.map(
          (l) =>
            html`<li>
              <code>${l.focus_id}</code> ${l.label ?? ''} <strong>${l.status}</strong>
              ${desk.focus_id === l.focus_id ? '(focus)' : ''}
            </li>`,
        )}
      </ul>`;
};

/**
 * The pending owner codes, read from the owner's channel (the directory the agent cannot read),
 * shown only to the local user (SYSTEM) and only live: a code belongs to the person, now.
 */
const ownerCodes = async (ctx: PageContext, projectId: string, desk: Desk, now: string) => {
  const pending = [...desk.challenges.values()].filter(
    (c) => c.status === 'pending' && c.expires_at > now,
  );
  if (pending.length === 0) return html`<p>No owner code is pending.</p>`;
  if (ctx.at !== undefined)
    return html`<p>${pending.length} code(s) were pending then; codes are shown live only.</p>`;
  if (ctx.principal.kind !== 'system')
    return html`<p>
      ${pending.length} code(s) pending. Only the local user sees codes here (or with
      <code>intentlog owner code</code>).
    </p>`;
  const { config } = missions(ctx.app).core;
  const read = await pendingCodes(config.ownerDir, now);
  const codes: PendingCode[] = read.codes.filter((c) => c.project_id === projectId);
  const skipped = read.skipped.length
    ? html`<p role="alert">
        Skipped in the owner directory (no code in them):
        ${read.skipped.map((s) => html`<code>${s.file}</code> (${s.reason}) `)}
      </p>`
    : '';
  return html`${skipped}
    <ul>
      ${pending.map((c) => {
        const code = codes.find((p) => p.challenge_id === c.challenge_id);
        return html`<li>
          <code>${c.operation}</code>, expires ${when(c.expires_at)}, ${c.attempts_remaining}
          attempts left:
          ${
            code
              ? html`<span
                  class="owner-code"
                  aria-label="owner code ${code.code.split('').join(' ')}"
                  >${code.code}</span
                >`
              : html`<em>not in this machine's owner channel</em>`
          }
        </li>`;
      })}
    </ul>`;
};

/** A project's missions desk: missions with their leases, lanes, and the pending owner code. */
export const missionPage = definePage({
  path: '/missions/:project',
  models: [],
  async render(ctx) {
    const id = ctx.params.project!;
    if (!(await mayView(ctx, id))) return projectNotFound(id);
    const { state: desk, folded } = await foldAt(ctx.app, deskStream(id), deskDecider, ctx.at);
    if (folded === 0) return projectNotFound(id);
    const now = await nowOf(ctx);
    const active = desk.active_mission_id ? desk.missions.get(desk.active_mission_id) : undefined;
    const others = [...desk.missions.values()].filter((m) => m !== active);
    const body = html`<div ${liveRegion(ctx, id)} id="live-region">
      <section aria-labelledby="owner-h">
        <h2 id="owner-h">Pending owner code</h2>
        ${await ownerCodes(ctx, id, desk, now)}
      </section>
      ${active ? missionBlock(active, desk, now) : html`<p>No active mission.</p>`}
      <section aria-labelledby="lanes-h">
        <h2 id="lanes-h">Lanes</h2>
        ${lanes(desk)}
      </section>
      ${desk.next_step ? html`<p><strong>Next step:</strong> ${desk.next_step.content}</p>` : ''}
      ${
        others.length
          ? html`<section aria-labelledby="past-h">
              <h2 id="past-h">Other missions (${others.length})</h2>
              <ul>
                ${others.map((m) => html`<li>${m.contract.objective} <strong>${m.status}</strong></li>`)}
              </ul>
            </section>`
          : ''
      }
    </div>`;
    return { title: `Missions: ${id}`, body };
  },
});

/** Every project the principal may see that has a missions desk (its desk stream has events). */
export const missionsPage = definePage({
  path: '/missions',
  nav: 'Missions',
  models: ['projects'],
  async render(ctx) {
    const projects = await projectsOf(ctx);
    const withDesk = (
      await Promise.all(
        projects.map(async (p) => {
          const { folded } = await foldAt(ctx.app, deskStream(p.project_id), deskDecider, ctx.at);
          return folded > 0 ? [p] : [];
        }),
      )
    ).flat();
    const body =
      withDesk.length === 0
        ? html`<p>
            No project has a missions desk yet (an agent binds one with hai_bind_project).
          </p>`
        : html`<ul>
            ${withDesk.map(
              (p) =>
                html`<li>
                  <a href="${href(`/missions/${encodeURIComponent(p.project_id)}`, { at: ctx.at })}"
                    >${p.name}</a
                  >
                  <small>(${p.project_id})</small>
                </li>`,
            )}
          </ul>`;
    return { title: 'Missions', body };
  },
});

/** The missions pages: the list (in the main navigation), one mission. */
export const missionsPages = [missionsPage, missionPage];
