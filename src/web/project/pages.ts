import { projectsModel } from '../../projections/project/projects.js';
import type { RoleSurface } from '../../events/project/index.js';
import type { ProjectView } from '../../projections/project/projects.js';

import { visibleProjects } from '../event-rows.js';
import { href, html } from '../html.js';
import { definePage, type PageContext, type Rendered } from '../page.js';

/** Every project the signed-in principal may see: all for SYSTEM, its own for an actor. */
export const projectsOf = async (ctx: PageContext): Promise<ProjectView[]> => {
  const all = await projectsModel.projects.values(ctx.models);
  const visible = await visibleProjects(ctx.app, ctx.principal);
  return visible ? all.filter((p) => visible.has(p.project_id)) : all;
};

/** Whether the signed-in principal may see the project (a surface's pages: with its role). */
export const mayView = async (ctx: PageContext, id: string, surface?: RoleSurface) => {
  const visible = await visibleProjects(ctx.app, ctx.principal, surface);
  return !visible || visible.has(id);
};

/**
 * One project the signed-in principal may see (as of the page's position), or undefined; with
 * a surface, one where it holds a role on that surface.
 */
export const projectOf = async (
  ctx: PageContext,
  id: string,
  surface?: RoleSurface,
): Promise<ProjectView | undefined> => {
  if (!(await mayView(ctx, id, surface))) return undefined;
  return (await projectsModel.projects.values(ctx.models)).find((v) => v.project_id === id);
};

/** The page for a project the principal cannot see (or that does not exist: the same answer). */
export const projectNotFound = (id: string): Rendered => ({
  title: 'Project not found',
  status: 404,
  body: html`<p>No project <code>${id}</code> you can see.</p>`,
});

const roles = (r: Record<string, string | undefined>) =>
  Object.entries(r)
    .map(([surface, role]) => `${surface}: ${role}`)
    .join(', ');

const projectRow = (ctx: PageContext, p: ProjectView) =>
  html`<tr>
    <th scope="row">
      <a href="${href(`/projects/${encodeURIComponent(p.project_id)}`, { at: ctx.at })}"
        >${p.name}</a
      >
    </th>
    <td><code>${p.project_id}</code></td>
    <td>${p.description ?? ''}</td>
    <td>${p.roster.length}</td>
    <td><time datetime="${p.created_at}">${p.created_at}</time></td>
  </tr>`;

export const projectsPage = definePage({
  path: '/',
  nav: 'Projects',
  models: ['projects'],
  async render(ctx) {
    const projects = await projectsOf(ctx);
    const body =
      projects.length === 0
        ? html`<p>No projects yet. Create one with the <code>create_project</code> tool.</p>`
        : html`<table>
            <caption>
              Projects (${projects.length})
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Description</th>
                <th scope="col">Members</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              ${projects.map((p) => projectRow(ctx, p))}
            </tbody>
          </table>`;
    return { title: 'Projects', body };
  },
});

/** A project: its roster with every surface's role; its tabs lead to each context's pages. */
export const projectPage = definePage({
  path: '/projects/:project',
  projectTab: 'Overview',
  models: ['projects'],
  async render(ctx) {
    const id = ctx.params.project!;
    const project = await projectOf(ctx, id);
    if (!project) return projectNotFound(id);
    const body = html`<p>${project.description ?? ''}</p>
      <table>
        <caption>
          Members
        </caption>
        <thead>
          <tr>
            <th scope="col">Actor</th>
            <th scope="col">Name</th>
            <th scope="col">Roles</th>
          </tr>
        </thead>
        <tbody>
          ${project.roster.map(
            (m) =>
              html`<tr>
                <th scope="row">${m.actor_id}</th>
                <td>${m.display_name ?? ''}</td>
                <td>${roles(m.roles)}</td>
              </tr>`,
          )}
        </tbody>
      </table>`;
    return { title: project.name, body };
  },
});

export const projectPages = [projectsPage, projectPage];
